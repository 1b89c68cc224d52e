# End-to-end tests of issue 21 ("trustworthy by default"): precision-targeted training, time
# budgets and estimates, the study's plan at every scale.
set(TR ${CMAKE_SOURCE_DIR}/tests/e2e/trust)
set(TRT ${RLX_TEST_TMP}/trust)
rlx_e2e(NAME "trust: rlx.train target_ci, its caps, warm-up until steady and its errors"
  ARGS run ${TR}/target_ci.lua STDOUT "target_ci ok\n$")
rlx_e2e(NAME "trust: budgets, estimates, caps, reruns and unique labels"
  ARGS run ${TR}/budget.lua STDOUT "budget ok\n$")
# Issue 55 point 4: a real tiny-model study whose faked contended first attempt is rerun one slot
# later and kept in run_attempts; export counts runs only, merge carries the attempt.
rlx_e2e(NAME "trust: a rerun runs in the sweep's order and keeps the first attempt in run_attempts"
  ARGS run ${TR}/rerun_attempts.lua STDOUT "rerun attempts ok\n$")
rlx_e2e(NAME "trust: calibration on this machine, the layouts it picks, the plan that leaves runs out whole"
  ARGS run ${TR}/calibrate.lua STDOUT "calibrate ok\n$")
# The default study's plan on a fixture machine (stored calibrations and peaks, frozen clock), line
# for line: tests/e2e/trust/pinned_plan.expected (issue 47: planning has one owner, same plan).
rlx_e2e(NAME "trust: the default study's plan on a fixture machine is pinned"
  ARGS run ${TR}/pinned_plan.lua STDOUT "pinned plan ok\n$")
# Issue 55: on the same fixture machine with native bf16, the plan keeps one fp32/bf16 pair per model
# (bf16 at batch 16 only) before any third repeat.
rlx_e2e(NAME "trust: a CPU with native bf16 keeps an fp32/bf16 pair per model in the default plan"
  ARGS run ${TR}/bf16_pair.lua STDOUT "bf16 pair ok\n$")
# Issue 45: repeats first, the calibration's spread, the counters' cost (the H200 study's), budget
# never left unused while a left-out run fits, one line after each run.
rlx_e2e(NAME "trust: repeats first, measured spread and counters, left-out runs that fit, a line per run"
  ARGS run ${TR}/repeats_first.lua STDOUT "repeats first ok\n$")
# smoke: 2 repeats, so 36 runs; default and full: 3 repeats, 54 (3 models x 3 batches x 2 precisions).
# The default scale without its budget, so every run is planned (the budget's trim: below).
foreach(scale_runs smoke:36 default:54 full:54)
  string(REPLACE ":" ";" pair ${scale_runs})
  list(GET pair 0 scale)
  list(GET pair 1 runs)
  rlx_e2e(NAME "trust: the ${scale} scale's dry run estimates every run and the total"
    ARGS run experiments/all.lua --dry-run --set scale=${scale} --set db=${TRT}/dry_${scale}.db --set precision=fp32,bf16
      --set budget=none
    STDOUT "run, ~[0-9.]+ (s|min|h) \\((analytic|analytic \\(prior\\)|measured|calibrated)(, up to [0-9]+ timed)?\\).*dry run: ${runs} to run, 0 skipped\\x3b estimated [0-9.]+ (s|min|h)")
endforeach()
# Issue 30: a budget is a plan to keep, never a gate. 20 s cannot hold one run: every run is left
# out, the plan says so (issue 45: before the first run) with the command that adds them, and the
# program goes on (exit 0).
rlx_e2e(NAME "trust: a budget too small for any run leaves them out, names the command that adds them, exits 0"
  ARGS run experiments/all.lua --dry-run --set budget=20s --set db=${TRT}/over.db --set devices=cpu --set precision=fp32
  STDOUT "plan: 0 runs \\(27 left out for the budget\\)\\x3b estimated [0-9.]+ (s|min) in all \\(calibration [0-9.]+ s, peaks [0-9.]+ (s|min), runs 0\\.0 s, figures and report 10 s\\)\\x3b budget 20 s\nplan: cpu at a step CV of [0-9]+ % \\(assumed: [^\n]*\\)\nplan: a dry run calibrates nothing: 3 models not yet calibrated here are estimated from priors measured on another CPU\\x3b the run probes them first \\(the calibration above\\) and plans again from this machine\nplan: the budget cannot hold one run of every configuration \\(the first runs left out need ~[0-9.]+ (min|h)\\): the first runs that fit are kept in the matrix's order, a later, cheaper one where a costly one did not fit, and the rest are left out whole\nplan: left out, repeats first \\(the first runs in the matrix's order, then the cheapest to 3 repeats\\): 27 runs, ~[0-9.]+ (min|h): [a-z0-9-]+_resnet50_fp32_bs16_run1, .* and 21 more\\x3b to add them to this database: rlx run experiments/all\\.lua --set db=${TRT}/over\\.db --set devices=cpu --set precision=fp32 --set budget=[0-9]+m\n")
rlx_e2e(NAME "trust: budget and protocol overrides are checked"
  ARGS run experiments/all.lua --dry-run --set iters=5 --set target_ci=0.02 --set db=${TRT}/bad.db
  EXIT 2 STDERR "^experiments/all\\.lua: --set iters= \\(a fixed count\\) and --set target_ci= exclude each other\n$")
rlx_e2e(NAME "trust: a bad budget is one line"
  ARGS run experiments/all.lua --dry-run --set budget=soon --set db=${TRT}/bad.db
  EXIT 2 STDERR "^experiments/all\\.lua: --set budget=: a duration is a number with s, m or h \\(e\\.g\\. 30m, 1\\.5h, 900s\\) or none, got 'soon'\n$")
rlx_e2e(NAME "trust: rlx train --target-ci prints how it stopped"
  ARGS train --model resnet18 --input 16 --classes 3 --batch-size 2 --threads 1 --target-ci 0.5 --max-iters 30
  STDOUT "^resnet18 cpu fp32 batch 2: [0-9.]+ img/s \\(median .*\\)\\x3b [0-9]+ iters after [0-9]+ warm-up, CI \\+/-[0-9.]+ % \\(stopped: (ci|max_iters)\\)")
rlx_e2e(NAME "trust: rlx train --iters with --target-ci is a usage error"
  ARGS train --model resnet18 --target-ci 0.02 --iters 5
  EXIT 2 STDERR "^rlx train: --iters is a fixed count\\x3b with --target-ci use --max-iters\nTry 'rlx train --help'")
rlx_e2e(NAME "trust: bf16 only where native, the plan's note in the report"
  ARGS run ${TR}/plan.lua STDOUT "plan ok\n$")
# The dry run's plan (which counts the calibration a real run makes) and its sweep keep the same runs.
add_test(NAME "e2e: trust: the dry run's plan and sweep keep the same runs"
  COMMAND bash ${TR}/dry_plan_agrees.sh $<TARGET_FILE:rlx> ${TRT}/dry_agrees.db WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties("e2e: trust: the dry run's plan and sweep keep the same runs" PROPERTIES
  PASS_REGULAR_EXPRESSION "^ok\n$")
