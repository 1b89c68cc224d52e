# End-to-end tests of issue 21 ("trustworthy by default"): precision-targeted training, time
# budgets and estimates, the study's plan at every scale.
set(TR ${CMAKE_SOURCE_DIR}/tests/e2e/trust)
set(TRT ${RLX_TEST_TMP}/trust)
rlx_e2e(NAME "trust: rlx.train target_ci, its caps, warm-up until steady and its errors"
  ARGS run ${TR}/target_ci.lua STDOUT "target_ci ok\n$")
rlx_e2e(NAME "trust: budgets, estimates, caps, reruns and unique labels"
  ARGS run ${TR}/budget.lua STDOUT "budget ok\n$")
# smoke: 2 repeats, so 36 runs; default and full: 3 repeats, 54 (3 models x 3 batches x 2 precisions).
foreach(scale_runs smoke:36 default:54 full:54)
  string(REPLACE ":" ";" pair ${scale_runs})
  list(GET pair 0 scale)
  list(GET pair 1 runs)
  rlx_e2e(NAME "trust: the ${scale} scale's dry run estimates every run and the total"
    ARGS run experiments/all.lua --dry-run --set scale=${scale} --set db=${TRT}/dry_${scale}.db --set precision=fp32,bf16
    STDOUT "run, ~[0-9.]+ (s|min|h) \\((analytic|measured)(, up to [0-9]+ timed)?\\).*dry run: ${runs} to run, 0 skipped\\x3b estimated [0-9.]+ (s|min|h)")
endforeach()
rlx_e2e(NAME "trust: a budget the minimum cannot fit names what to cut, before anything runs"
  ARGS run experiments/all.lua --set budget=20s --set db=${TRT}/over.db --set devices=cpu
  EXIT 2 STDERR "^experiments/all\\.lua: the study does not fit its budget: its runs need at least [0-9.]+ (s|min|h) at the minimum protocol \\(3 timed iterations per run\\) on this machine and 0\\.0 s is left for them\\x3b (cut one of|combine): --set [a-z_]+=[^ ]+ \\(saves [0-9.]+ (s|min|h)\\).*\\x3b or raise --set budget= \\(at least [0-9.]+ (s|min|h)\\)\n$")
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
