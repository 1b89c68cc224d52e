# End-to-end tests of command-line fixes: export's CSV columns, runs --summary --json, env --db
# errors, models' list and --gib limits, train's help and --device message, the CSV formula guard,
# counters --chip and import-kit's folder check. Scripts in tests/e2e/cli/.

cli: export CSV cells under their headers, runs --summary --json, env --db errors
  $ bash tests/e2e/cli/commands.sh "$RLX"

cli: train --device cuda without CUDA says --device cpu
  ctest: SKIP_RETURN_CODE 77
  $ bash tests/e2e/cli/device_flag.sh "$RLX"

# rlx models without NAME at an input alexnet cannot take: the list still prints, alexnet marked
# with the smallest input it takes. 63 by hand: conv 11/4 pad 2 gives (63 + 4 - 11) / 4 + 1 = 15,
# maxpool 3/2 gives 7, conv 5 pad 2 keeps 7, maxpool gives 3, the 3x3 convs keep 3, and the last
# maxpool 3/2 gives 1; at 62: 14, 6, 6, 2, 2, and a 3x3 pool does not fit 2x2.
cli: models --input 32 lists every model, alexnet marked too small
  $ rlx models --input 32
  built-in models at 32x32, 1000 classes .* (re)
  resnet18 +11,689,512 .* (re)
  mobilenet_v2 +3,504,872 .* (re)
  alexnet +- +- +- +- +- (re)
    alexnet: input too small: it takes 63x63 or more (at 32: model layer features.12 (maxpool): kernel 3 does not fit the 1x1 input (pad 0))

cli: models --input 32 --json gives alexnet's min_input
  $ rlx models --input 32 --json
  stdout contains:
  "min_input": 63,
   +"model": "alexnet" (re)

cli: models --input 63 lists alexnet with its numbers
  $ rlx models --input 63
  stdout contains: \nalexnet +61,100,840\x20 (re)

cli: models alexnet --input 62 names the smallest input
  $ rlx models alexnet --input 62
  stderr:
  rlx models: alexnet: input 62 is too small (model layer features.12 (maxpool): kernel 3 does not fit the 2x2 input (pad 0)); the smallest input it takes is 63: use --input 63 or more
  Try 'rlx models --help'.
  [2]

cli: models --batch without NAME is a usage error
  $ rlx models --batch 7
  stderr:
  rlx models: --batch applies to one model, and the list is per image at batch 1: name the model (rlx models resnet50 --batch 16,32)
  Try 'rlx models --help'.
  [2]

cli: models --gib without NAME is a usage error
  $ rlx models --gib 16
  stderr starts with: rlx models: --gib applies to one model
  [2]

cli: models --layers without NAME is a usage error
  $ rlx models --layers
  stderr starts with: rlx models: --layers applies to one model
  [2]

# --gib 1e9 would hold 41462233568 resnet18 images in fp32, but no batch above 863459493 passes the
# int64 limit (the largest batch `rlx models resnet18 --batch 863459494` names): capped there.
cli: models --gib caps at the largest batch rlx accepts
  $ rlx models resnet18 --gib 1e9
  stdout contains: \nlargest batch within 1e+09 GiB: 863459493 in fp32, 863459493 in amp, capped at the largest batch rlx accepts for this model at input 224\x20 (esc)

cli: models --batch 863459494 is the first refused
  $ rlx models resnet18 --batch 863459494
  stderr contains: the largest batch is 863459493\n (esc)
  [2]

# resnet18 at batch 1 in fp32: params, grads and momentum 3 x 46.758048 MB + buffers 0.03856 MB +
# 25.89 MB of activations (414.3 MB / 16 in the batch table) = 166.2 MB = 158.5 MiB; in amp 169.5
# MiB (the fp16 weight copies); 0.01 GiB is 10.24 MiB, 0.16 GiB 163.84 MiB (batch 1 in fp32 only).
cli: models --gib says when not even batch 1 fits
  $ rlx models resnet18 --gib 0.01
  stdout ends with: \nnot even batch 1 fits within 0.01 GiB: it needs 158.5 MiB in fp32 and 169.5 MiB in amp (training memory, docs/complexity.md) (esc)

cli: models --gib with batch 1 fitting in one precision only
  $ rlx models resnet18 --gib 0.16
  stdout contains: \nlargest batch within 0.16 GiB: 1 in fp32, none in amp (batch 1 needs 169.5 MiB) (an upper bound (esc)

cli: models --gib --json keeps 0 and names the limit
  $ rlx models resnet18 --gib 1e9 --json
  stdout contains:
  "max_batch": {
   +"amp": 863459493, (re)
   +"fp32": 863459493, (re)
   +"gib": 1000000000, (re)
   +"limit": 863459493\n (re)

# rlx train --help states the steady-state rule the trainer applies (StabilityRule: drift 5 % beyond
# the noise, CV 25 %), not the old CV 10 %.
cli: train --help states the steady-state rule
  $ rlx train --help
  stdout contains: \n  --min-stable +extend the timed iterations \(up to 2 x --iters more, dropping the oldest\) until the last --iters are steady: no drift beyond 5 % that exceeds the noise \(Welch's t\), CV <= 25 % \(docs/training\.md "Steady state"\)\n (re)

# The CSV formula guard: a cell starting with a tab or a carriage return, or a sign not followed by
# a decimal number (-0x10), gets the '; decimal numbers (-2, 1e-3, +2.5, -.5) stay as they are.
cli: rlx.csv guards tab, CR and hex cells, not decimal numbers
  $ rlx -e "io.write(rlx.csv.text({'a'}, {{'\r-2'}, {'\t1'}, {'-0x10'}, {'-2'}, {'1e-3'}, {'-1e-3'}, {'+2.5'}, {'-.5'}, {'-'}, {'-1e'}, {'-inf'}, {'=1'}}))"
  a
  "'\r-2" (esc)
  '\t1 (esc)
  '-0x10
  -2
  1e-3
  -1e-3
  +2.5
  -.5
  '-
  '-1e
  '-inf
  '=1

# rlx counters: --chip without --device cuda is a usage error (exit 2), with the flag to add.
cli: counters --list --chip without --device cuda
  $ rlx counters --list --chip bogus
  stderr:
  rlx counters: --chip plans for an NVIDIA chip: add --device cuda (--chip bogus --device cuda)
  Try 'rlx counters --help'.
  [2]

cli: counters --list an unknown chip is a usage error
  requires: cupti
  $ rlx counters --list --device cuda --chip XYZ1
  stderr:
  rlx counters: option 'chip' is invalid: CUPTI host API does not know chip 'XYZ1': [A-Z_]+; give the chip's code name as CUPTI spells it \(GH100, GA100, AD102, TU104, \.\.\.\) (re)
  Try 'rlx counters --help'.
  [2]

# rlx import-kit of a folder that is not a kit: the layout it expects, the path once.
cli: import-kit of a folder without logs/
  $ rlx import-kit tests/e2e/cli --db $RLX_TEST_TMP/cli-import-kit.db
  stderr: rlx import-kit: cannot read tests/e2e/cli/logs/metrics.csv: tests/e2e/cli has no logs/ folder; DIR must be the folder seed 000's kit ran in (DIR/logs/metrics.csv, with optional DIR/logs/env_info.md and DIR/logs/ncu/LABEL.csv)
  [1]

cli: import-kit of a missing folder
  $ rlx import-kit no/such/kit --db $RLX_TEST_TMP/cli-import-kit.db
  stderr starts with: rlx import-kit: no folder at 'no/such/kit'; DIR must be the folder seed 000's kit ran in\x20 (esc)
  [1]

cli: import-kit of a file
  $ rlx import-kit CMakeLists.txt --db $RLX_TEST_TMP/cli-import-kit.db
  stderr starts with: rlx import-kit: 'CMakeLists.txt' is a file, not a kit folder;\x20 (re)
  [1]
