# End-to-end tests of issue 23 (seed 000's kit): experiments/all.lua's data=, zone=, instance= and
# price_per_hour= through a dry run and a study with a stand-in trainer, and the environment
# scripts' labels. The seed-layout export is tested in store.t (export_seed), the CIFAR-10
# Python batches in train.t.

kit: all.lua on an ImageFolder with zone, instance and price; report rows by hand
  $ bash tests/e2e/kit/kit.sh "$RLX"

# Issue 34: a machine measured with the seed's own kit, imported as an environment; bad input is one
# line with file:line:column and leaves the database as it was.
kit: rlx import-kit stores the kit's runs, environment and ncu counters; bad input changes nothing
  $ bash tests/e2e/kit/import.sh "$RLX" $RLX_TEST_TMP

kit: gcp-l4 and mac-mps labels find gcp.lua and mac_mps.lua
  $ rlx -e "local e = rlx.experiment local l = e.labels_for({env = {label = 'gcp-l4'}}, {kind = 'cuda', name = 'NVIDIA L4'}) print(table.concat(l, ',')) print((select(2, e.pick('experiments', 'cuda', l)))) print((select(2, e.pick('experiments', 'cpu', e.labels_for({env = {label = 'mac-mps'}}, {kind = 'cpu'})))))"
  gcp-l4,gcp_l4,gcp,l4
  gcp
  cpu
  stderr contains: experiments/mac_mps.lua: this rlx cannot train on an Apple GPU (re)

kit: all.lua --help lists data, zone, instance, price_per_hour
  $ rlx run experiments/all.lua --help
  stdout contains: data=STRING .*instance=STRING .*price_per_hour=NUMBER .*zone=STRING\x20 (re)

# Store times to the kit's Unix seconds (by hand, and as `date -u -d ... +%s` gives them): the
# epoch, 2000-03-01 (after a leap day of a century year divisible by 400), the last second of
# 2024-02-29, one second before the epoch; any other text is nil.
kit: unix_seconds of store times
  $ rlx -e "local u = rlx.seed_layout.unix_seconds print(u('1970-01-01T00:00:00Z'), u('2000-03-01T00:00:00Z'), u('2024-02-29T23:59:59Z'), u('1969-12-31T23:59:59Z'), u('yesterday'))"
  0\t951868800\t1709251199\t-1\tnil (esc)

# The one CSV writer: quoting (comma, quote), nil as an empty cell, numbers in full (1/3 needs 17
# digits to read back; 2^53 is an integer written out), a table as JSON.
kit: rlx.csv quotes and writes numbers in full
  $ rlx -e "io.write(rlx.csv.text({'a', 'b', 'c'}, {{'x,y', 1 / 3, 0.1}, {'q\"', nil, 2 ^ 53}, {{1, 2}, true}}))"
  a,b,c
  "x,y",0.33333333333333331,0.1
  "q""",,9007199254740992
  "[1,2]",true,

kit: rlx.csv.text wants arrays
  $ rlx -e "rlx.csv.text('a', {})"
  stderr starts with: (command line):1: rlx.csv.text: expected an array of column names, got string\n (esc)
  [1]
