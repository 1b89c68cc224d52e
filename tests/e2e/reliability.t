# End-to-end tests of issue 17 (hardening against hostile input): nothing lost, nothing
# half-written, messages that name the real cause. Shell scenarios live in tests/e2e/reliability/;
# docs/reliability.md has a section per item naming its test.
# Issue 35 (the third probe): resume_zombie (item 1), study_params (2, 3, 5), escapes (4),
# interrupted_retry (6), report_images (7), checked_first (8), merge_running (9), messages3 (11).
# Issue 48 (the fourth probe): user_files (item 1), unlabelled_runs (2), calibration_corrupt (7),
# truncated_jpegs (8), messages4 (10).
# Issue 56 (the fifth probe): doc_commands (item 1: every command line the docs show runs),
# export_foreign (5), messages5 (6 and 7: validation and messages), signals5 (3: a pcall loop ends on
# SIGTERM and on a second SIGINT), path_slots (4: a FIFO, a folder or a device in every path slot the CLI
# declares is refused in under 2 s).

reliability: outputs
  $ bash tests/e2e/reliability/outputs.sh "$RLX"

reliability: figures
  $ bash tests/e2e/reliability/figures.sh "$RLX"

reliability: store_open
  $ bash tests/e2e/reliability/store_open.sh "$RLX"

reliability: overwrite_db
  $ bash tests/e2e/reliability/overwrite_db.sh "$RLX"

reliability: typos
  $ bash tests/e2e/reliability/typos.sh "$RLX"

reliability: submit
  $ bash tests/e2e/reliability/submit.sh "$RLX"

reliability: resume_zombie
  $ bash tests/e2e/reliability/resume_zombie.sh "$RLX"

reliability: study_params
  $ bash tests/e2e/reliability/study_params.sh "$RLX"

reliability: escapes
  $ bash tests/e2e/reliability/escapes.sh "$RLX"

reliability: interrupted_retry
  $ bash tests/e2e/reliability/interrupted_retry.sh "$RLX"

reliability: report_images
  $ bash tests/e2e/reliability/report_images.sh "$RLX"

reliability: checked_first
  $ bash tests/e2e/reliability/checked_first.sh "$RLX"

reliability: merge_running
  $ bash tests/e2e/reliability/merge_running.sh "$RLX"

reliability: messages3
  $ bash tests/e2e/reliability/messages3.sh "$RLX"

reliability: user_files
  $ bash tests/e2e/reliability/user_files.sh "$RLX"

reliability: unlabelled_runs
  $ bash tests/e2e/reliability/unlabelled_runs.sh "$RLX"

reliability: calibration_corrupt
  $ bash tests/e2e/reliability/calibration_corrupt.sh "$RLX"

reliability: truncated_jpegs
  $ bash tests/e2e/reliability/truncated_jpegs.sh "$RLX"

reliability: messages4
  $ bash tests/e2e/reliability/messages4.sh "$RLX"

# Every documented command, each in its dry-run or smoke form: minutes, not seconds.
reliability: doc_commands
  ctest: TIMEOUT 1800
  $ bash tests/e2e/reliability/doc_commands.sh "$RLX"

reliability: messages5
  $ bash tests/e2e/reliability/messages5.sh "$RLX"

reliability: export_foreign
  $ bash tests/e2e/reliability/export_foreign.sh "$RLX"

reliability: signals5
  $ bash tests/e2e/reliability/signals5.sh "$RLX"

reliability: path_slots
  $ bash tests/e2e/reliability/path_slots.sh "$RLX"

# Item 13: out of memory at --batch-size 1e12 is one line with the promised advice, not LibTorch's
# enforce text twice. (1e12 x 3 x 224 x 224 x 4 bytes, refused by the host allocator at once.)
reliability: out of memory is one line with the advice
  $ rlx train --model resnet18 --batch-size 1e12 --iters 1 --warmup-iters 0
  stdout:
  stderr: rlx train: out of memory: the host could not allocate 602112000000000000 bytes (602112000 GB) (lower batch or input)
  [1]

# Item 18: MobileNetV2 at batch 1 with a 32-pixel input reaches a 1x1 feature map before a batch
# norm layer: the message names the cause.
reliability: batch norm at batch 1 names batch >= 2
  $ rlx train --model mobilenet_v2 --batch-size 1 --input 32 --iters 1 --warmup-iters 0 --threads 1
  stderr: rlx train: training with batch norm needs batch >= 2: a batch norm layer got one value per channel \(input \[1, [0-9]+, 1, 1\]\), which has no variance to normalize by; use batch >= 2, or a larger input so the feature map is more than 1x1 (re)
  [1]

# Issue 35 item 10: one rule for values that are not finite numbers. A chart refuses them, naming
# the point (throughput drew around a NaN and drew negative images/s; the roofline refused); a
# frame treats NaN as missing in :agg as :plot does (one NaN made its group's mean NaN); an empty
# frame says it is empty (it said "unknown column 'batch' (valid columns: )").
reliability: a chart refuses a NaN, naming the point
  $ rlx -e "rlx.plot.throughput{series = {{label = 'a', x = {16, 32}, y = {0 / 0, 5}}}, out = os.getenv('RLX_TEST_TMP') .. '/nan.png'}"
  stderr starts with: (command line):1: rlx.plot.throughput: series 1 ('a'): y[1] is NaN, not a finite number: drop the point or fix its value\n (esc)
  [1]

reliability: a chart refuses inf like the roofline
  $ rlx -e "rlx.plot.line{series = {{x = {1, 2}, y = {1, math.huge}}}, out = os.getenv('RLX_TEST_TMP') .. '/inf.png'}"
  stderr starts with: (command line):1: rlx.plot.line: series 1: y[2] is inf, not a finite number: drop the point or fix its value\n (esc)
  [1]

reliability: throughput refuses negative images/s
  $ rlx -e "rlx.plot.throughput{series = {{x = {16, 32}, y = {-3, 5}}}, out = os.getenv('RLX_TEST_TMP') .. '/neg.png'}"
  stderr starts with: (command line):1: rlx.plot.throughput: series 1: y[1] = -3 images/s: a throughput cannot be negative; fix its value\n (esc)
  [1]

reliability: a frame's agg leaves NaN out as its plot does
  $ rlx -e "local f = rlx.frame{{g = 1, v = 1}, {g = 1, v = 0 / 0}, {g = 1, v = 3}, {g = 2, v = 0 / 0}} local a = f:group_by('g'):agg{v = {'mean', 'count'}} print(a[1].v_mean, a[1].v_count, a[2].v_mean, a[2].v_count)"
  2\t2\tnil\t0 (esc)

reliability: plotting an empty frame says it is empty
  $ rlx -e "rlx.frame{}:plot{x = 'batch', y = 'images_per_s', out = os.getenv('RLX_TEST_TMP') .. '/empty.png'}"
  stderr starts with: (command line):1: rows:plot: the frame has no rows: nothing to draw (did a where{} or a query match nothing?)\n (esc)
  [1]

# Issue 35 item 11, the messages of one command each.
reliability: a directory as the script is a usage error with rlx's prefix
  $ rlx run tests
  stderr: rlx: 'tests' is a directory, not a script: give the path of a Lua file (rlx run FILE.lua)
  [2]

reliability: --set of an integer a double cannot hold is refused
  $ rlx -e 'print(rlx.params.n)' --set n=9007199254740993
  stderr starts with: rlx: --set n=9007199254740993: 9007199254740993 is an integer beyond 2^53 (9007199254740992), which a double (Lua's numbers) cannot hold exactly: it would be rounded; give a smaller number\n (esc)
  [2]

reliability: --set of 2^53 itself is taken
  $ rlx -e "print(string.format('%d', rlx.params.n))" --set n=9007199254740992
  9007199254740992

reliability: a comma list with an empty item is refused
  $ rlx models --batch 1,,2
  stderr starts with: rlx models: --batch has an empty item in '1,,2' (two commas in a row, or one at an end): remove it\n (esc)
  [2]

reliability: help of a misspelt name says it is nil
  $ rlx -e 'rlx.help(rlx.trian)'
  help: the value given is nil (a misspelt name, or a variable that is not set); help() lists the tables, help("rlx.train") takes a name

reliability: --set label with a slash is one line, exit 2
  $ rlx run experiments/all.lua --set label=../../x --dry-run
  stderr: experiments/all.lua: rlx.study: option 'label' must be a non-empty name without '/' (it names figure files and run labels), got '../../x'
  [2]

reliability: a price per hour beyond 1e9 is refused
  $ rlx run experiments/all.lua --set price_per_hour=1e308 --dry-run
  stderr starts with: experiments/all.lua: --set price_per_hour= must be a number from 0 to 1000000000, got '1e308'\n (esc)
  [2]

reliability: where with an empty table is refused
  $ rlx -e 'rlx.frame{{config = {a = 1}}}:where{config = {}}'
  stderr starts with: (command line):1: rows:where: the value for 'config' is an empty table: give a value, a non-empty list of values, or a function of the cell
  [1]

reliability: a --set error of rlx -e code is one line
  $ rlx -e "rlx.params.declare{x = {type = 'integer'}}" --set x=a
  stderr: rlx -e: --set x= must be an integer, got 'a'
  [2]

# Issue 48 items 6 and 9: sizes a user can type into a study are bounded before anything is planned,
# with the limit and why; a repeated device is a usage error.
reliability: --set repeats=1e6 is refused at once with the limit and why
  $ rlx run experiments/all.lua --set scale=smoke --set repeats=1e6 --dry-run --set db=$RLX_TEST_TMP/bounds.db
  stderr: experiments/all.lua: --set repeats=1e6: at most 50 (every repeat is one more run of each configuration, planned and stored one by one; seed 001 asks for 3)
  [2]

reliability: study:sweep refuses more than 50 repeats
  $ rlx -e "rlx.study{name = 'b', db = os.getenv('RLX_TEST_TMP') .. '/bounds_sweep.db'}:plan{models = {'resnet18'}, repeats = 51}"
  stderr contains: study:plan: option 'repeats' must be an integer from 1 to 50, got 51
  [1]

reliability: --set batch=1e12 is refused as rlx models refuses it
  $ rlx run experiments/all.lua --set batch=1e12 --dry-run --set db=$RLX_TEST_TMP/bounds.db
  stderr: experiments/all.lua: --set batch=: batch 1000000000000 is too large: resnet50 at input 224 exceeds the int64 limit 9223372036854775807 FLOPs or bytes; the largest batch is 377413580
  [2]

reliability: --set devices=cpu,cpu is a usage error
  $ rlx run experiments/all.lua --set devices=cpu,cpu --dry-run --set db=$RLX_TEST_TMP/bounds.db
  stderr: experiments/all.lua: --set devices=: 'cpu' is listed twice
  [2]
