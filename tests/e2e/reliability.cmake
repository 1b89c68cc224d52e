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
foreach(scenario outputs figures store_open overwrite_db typos submit resume_zombie study_params escapes
        interrupted_retry report_images checked_first merge_running messages3 user_files unlabelled_runs
        calibration_corrupt truncated_jpegs messages4 doc_commands messages5 export_foreign signals5
        path_slots)
  add_test(NAME "e2e: reliability: ${scenario}"
    COMMAND bash ${CMAKE_SOURCE_DIR}/tests/e2e/reliability/${scenario}.sh $<TARGET_FILE:rlx>
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties("e2e: reliability: ${scenario}" PROPERTIES
    ENVIRONMENT "RLX_TEST_TMP=${RLX_TEST_TMP};HOME=${RLX_TEST_TMP}")
endforeach()
# Every documented command, each in its dry-run or smoke form: minutes, not seconds.
set_tests_properties("e2e: reliability: doc_commands" PROPERTIES TIMEOUT 1800)

# Item 13: out of memory at --batch-size 1e12 is one line with the promised advice, not LibTorch's
# enforce text twice. (1e12 x 3 x 224 x 224 x 4 bytes, refused by the host allocator at once.)
rlx_e2e(NAME "reliability: out of memory is one line with the advice" EXIT 1
  ARGS train --model resnet18 --batch-size 1e12 --iters 1 --warmup-iters 0 STDOUT "^$"
  STDERR "^rlx train: out of memory: the host could not allocate 602112000000000000 bytes \\(602112000 GB\\) \\(lower batch or input\\)\n$")
# Item 18: MobileNetV2 at batch 1 with a 32-pixel input reaches a 1x1 feature map before a batch
# norm layer: the message names the cause.
rlx_e2e(NAME "reliability: batch norm at batch 1 names batch >= 2" EXIT 1
  ARGS train --model mobilenet_v2 --batch-size 1 --input 32 --iters 1 --warmup-iters 0 --threads 1
  STDERR "^rlx train: training with batch norm needs batch >= 2: a batch norm layer got one value per channel \\(input \\[1, [0-9]+, 1, 1\\]\\), which has no variance to normalize by\\x3b use batch >= 2, or a larger input so the feature map is more than 1x1\n$")

# Issue 35 item 10: one rule for values that are not finite numbers. A chart refuses them, naming
# the point (throughput drew around a NaN and drew negative images/s; the roofline refused); a
# frame treats NaN as missing in :agg as :plot does (one NaN made its group's mean NaN); an empty
# frame says it is empty (it said "unknown column 'batch' (valid columns: )").
rlx_e2e(NAME "reliability: a chart refuses a NaN, naming the point" EXIT 1
  ARGS -e "rlx.plot.throughput{series = {{label = 'a', x = {16, 32}, y = {0 / 0, 5}}}, out = os.getenv('RLX_TEST_TMP') .. '/nan.png'}"
  STDERR "^\\(command line\\):1: rlx\\.plot\\.throughput: series 1 \\('a'\\): y\\[1\\] is NaN, not a finite number: drop the point or fix its value\n")
rlx_e2e(NAME "reliability: a chart refuses inf like the roofline" EXIT 1
  ARGS -e "rlx.plot.line{series = {{x = {1, 2}, y = {1, math.huge}}}, out = os.getenv('RLX_TEST_TMP') .. '/inf.png'}"
  STDERR "^\\(command line\\):1: rlx\\.plot\\.line: series 1: y\\[2\\] is inf, not a finite number: drop the point or fix its value\n")
rlx_e2e(NAME "reliability: throughput refuses negative images/s" EXIT 1
  ARGS -e "rlx.plot.throughput{series = {{x = {16, 32}, y = {-3, 5}}}, out = os.getenv('RLX_TEST_TMP') .. '/neg.png'}"
  STDERR "^\\(command line\\):1: rlx\\.plot\\.throughput: series 1: y\\[1\\] = -3 images/s: a throughput cannot be negative\\x3b fix its value\n")
rlx_e2e(NAME "reliability: a frame's agg leaves NaN out as its plot does"
  ARGS -e "local f = rlx.frame{{g = 1, v = 1}, {g = 1, v = 0 / 0}, {g = 1, v = 3}, {g = 2, v = 0 / 0}} local a = f:group_by('g'):agg{v = {'mean', 'count'}} print(a[1].v_mean, a[1].v_count, a[2].v_mean, a[2].v_count)"
  STDOUT "^2\t2\tnil\t0\n$")
rlx_e2e(NAME "reliability: plotting an empty frame says it is empty" EXIT 1
  ARGS -e "rlx.frame{}:plot{x = 'batch', y = 'images_per_s', out = os.getenv('RLX_TEST_TMP') .. '/empty.png'}"
  STDERR "^\\(command line\\):1: rows:plot: the frame has no rows: nothing to draw \\(did a where\\{\\} or a query match nothing\\?\\)\n")

# Issue 35 item 11, the messages of one command each.
rlx_e2e(NAME "reliability: a directory as the script is a usage error with rlx's prefix" EXIT 2
  ARGS run tests STDERR "^rlx: 'tests' is a directory, not a script: give the path of a Lua file \\(rlx run FILE\\.lua\\)\n$")
rlx_e2e(NAME "reliability: --set of an integer a double cannot hold is refused" EXIT 2
  ARGS -e "print(rlx.params.n)" --set n=9007199254740993
  STDERR "^rlx: --set n=9007199254740993: 9007199254740993 is an integer beyond 2\\^53 \\(9007199254740992\\), which a double \\(Lua's numbers\\) cannot hold exactly: it would be rounded\\x3b give a smaller number\n")
rlx_e2e(NAME "reliability: --set of 2^53 itself is taken" ARGS -e "print(string.format('%d', rlx.params.n))"
  --set n=9007199254740992 STDOUT "^9007199254740992\n$")
rlx_e2e(NAME "reliability: a comma list with an empty item is refused" EXIT 2 ARGS models --batch 1,,2
  STDERR "^rlx models: --batch has an empty item in '1,,2' \\(two commas in a row, or one at an end\\): remove it\n")
rlx_e2e(NAME "reliability: help of a misspelt name says it is nil"
  ARGS -e "rlx.help(rlx.trian)"
  STDOUT "^help: the value given is nil \\(a misspelt name, or a variable that is not set\\)\\x3b help\\(\\) lists the tables, help\\(\"rlx\\.train\"\\) takes a name\n$")
rlx_e2e(NAME "reliability: --set label with a slash is one line, exit 2" EXIT 2
  ARGS run experiments/all.lua --set label=../../x --dry-run
  STDERR "^experiments/all\\.lua: rlx\\.study: option 'label' must be a non-empty name without '/' \\(it names figure files and run labels\\), got '\\.\\./\\.\\./x'\n$")
rlx_e2e(NAME "reliability: a price per hour beyond 1e9 is refused" EXIT 2
  ARGS run experiments/all.lua --set price_per_hour=1e308 --dry-run
  STDERR "^experiments/all\\.lua: --set price_per_hour= must be a number from 0 to 1000000000, got '1e308'\n")
rlx_e2e(NAME "reliability: where with an empty table is refused" EXIT 1
  ARGS -e "rlx.frame{{config = {a = 1}}}:where{config = {}}"
  STDERR "^\\(command line\\):1: rows:where: the value for 'config' is an empty table: give a value, a non-empty list of values, or a function of the cell")
rlx_e2e(NAME "reliability: a --set error of rlx -e code is one line" EXIT 2
  ARGS -e "rlx.params.declare{x = {type = 'integer'}}" --set x=a STDERR "^rlx -e: --set x= must be an integer, got 'a'\n$")

# Issue 48 items 6 and 9: sizes a user can type into a study are bounded before anything is planned,
# with the limit and why; a repeated device is a usage error.
rlx_e2e(NAME "reliability: --set repeats=1e6 is refused at once with the limit and why"
  ARGS run experiments/all.lua --set scale=smoke --set repeats=1e6 --dry-run --set db=${RLX_TEST_TMP}/bounds.db
  EXIT 2 STDERR "^experiments/all\\.lua: --set repeats=1e6: at most 50 \\(every repeat is one more run of each configuration, planned and stored one by one\\x3b seed 001 asks for 3\\)\n$")
rlx_e2e(NAME "reliability: study:sweep refuses more than 50 repeats"
  ARGS -e "rlx.study{name = 'b', db = os.getenv('RLX_TEST_TMP') .. '/bounds_sweep.db'}:plan{models = {'resnet18'}, repeats = 51}"
  EXIT 1 STDERR "study:plan: option 'repeats' must be an integer from 1 to 50, got 51")
rlx_e2e(NAME "reliability: --set batch=1e12 is refused as rlx models refuses it"
  ARGS run experiments/all.lua --set batch=1e12 --dry-run --set db=${RLX_TEST_TMP}/bounds.db
  EXIT 2 STDERR "^experiments/all\\.lua: --set batch=: batch 1000000000000 is too large: resnet50 at input 224 exceeds the int64 limit 9223372036854775807 FLOPs or bytes\\x3b the largest batch is 377413580\n$")
rlx_e2e(NAME "reliability: --set devices=cpu,cpu is a usage error"
  ARGS run experiments/all.lua --set devices=cpu,cpu --dry-run --set db=${RLX_TEST_TMP}/bounds.db
  EXIT 2 STDERR "^experiments/all\\.lua: --set devices=: 'cpu' is listed twice\n$")
