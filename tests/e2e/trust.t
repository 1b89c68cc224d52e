# End-to-end tests of issue 21 ("trustworthy by default"): precision-targeted training, time
# budgets and estimates, the study's plan at every scale.

trust: rlx.train target_ci, its caps, warm-up until steady and its errors
  $ rlx run tests/e2e/trust/target_ci.lua
  stdout ends with: target_ci ok

trust: budgets, estimates, caps, reruns and unique labels
  $ rlx run tests/e2e/trust/budget.lua
  stdout ends with: budget ok

# Issue 55 point 4: a real tiny-model study whose faked contended first attempt is rerun one slot
# later and kept in run_attempts; export counts runs only, merge carries the attempt.
trust: a rerun runs in the sweep's order and keeps the first attempt in run_attempts
  $ rlx run tests/e2e/trust/rerun_attempts.lua
  stdout ends with: rerun attempts ok

trust: calibration on this machine, the layouts it picks, the plan that leaves runs out whole
  $ rlx run tests/e2e/trust/calibrate.lua
  stdout ends with: calibrate ok

# The default study's plan on a fixture machine (stored calibrations and peaks, frozen clock), line
# for line: tests/e2e/trust/pinned_plan.expected (issue 47: planning has one owner, same plan).
trust: the default study's plan on a fixture machine is pinned
  $ rlx run tests/e2e/trust/pinned_plan.lua
  stdout ends with: pinned plan ok

# Issue 55: on the same fixture machine with native bf16, the plan keeps one fp32/bf16 pair per model
# (bf16 at batch 16 only) before any third repeat.
trust: a CPU with native bf16 keeps an fp32/bf16 pair per model in the default plan
  $ rlx run tests/e2e/trust/bf16_pair.lua
  stdout ends with: bf16 pair ok

# Issue 45: repeats first, the calibration's spread, the counters' cost (the H200 study's), budget
# never left unused while a left-out run fits, one line after each run.
trust: repeats first, measured spread and counters, left-out runs that fit, a line per run
  $ rlx run tests/e2e/trust/repeats_first.lua
  stdout ends with: repeats first ok

# smoke: 2 repeats, so 36 runs; default and full: 3 repeats, 54 (3 models x 3 batches x 2 precisions).
# The default scale without its budget, so every run is planned (the budget's trim: below).
trust: the smoke scale's dry run estimates every run and the total
  $ rlx run experiments/all.lua --dry-run --set scale=smoke --set db=$RLX_TEST_TMP/trust/dry_smoke.db --set precision=fp32,bf16 --set budget=none
  stdout contains: run, ~[0-9.]+ (s|min|h) \((analytic|analytic \(prior\)|measured|calibrated)(, up to [0-9]+ timed)?\).*dry run: 36 to run, 0 skipped; estimated [0-9.]+ (s|min|h) (re)

trust: the default scale's dry run estimates every run and the total
  $ rlx run experiments/all.lua --dry-run --set scale=default --set db=$RLX_TEST_TMP/trust/dry_default.db --set precision=fp32,bf16 --set budget=none
  stdout contains: run, ~[0-9.]+ (s|min|h) \((analytic|analytic \(prior\)|measured|calibrated)(, up to [0-9]+ timed)?\).*dry run: 54 to run, 0 skipped; estimated [0-9.]+ (s|min|h) (re)

trust: the full scale's dry run estimates every run and the total
  $ rlx run experiments/all.lua --dry-run --set scale=full --set db=$RLX_TEST_TMP/trust/dry_full.db --set precision=fp32,bf16 --set budget=none
  stdout contains: run, ~[0-9.]+ (s|min|h) \((analytic|analytic \(prior\)|measured|calibrated)(, up to [0-9]+ timed)?\).*dry run: 54 to run, 0 skipped; estimated [0-9.]+ (s|min|h) (re)

# Issue 30: a budget is a plan to keep, never a gate. 20 s cannot hold one run: every run is left
# out, the plan says so (issue 45: before the first run) with the command that adds them, and the
# program goes on (exit 0). The dry run counts the calibration a real run makes from priors: since
# issue 55 the probe trains at the sweep's smallest batch (16), a minute or more of it here.
trust: a budget too small for any run leaves them out, names the command that adds them, exits 0
  $ rlx run experiments/all.lua --dry-run --set budget=20s --set db=$RLX_TEST_TMP/trust/over.db --set devices=cpu --set precision=fp32
  stdout contains:
  plan: 0 runs \(27 left out for the budget\); estimated [0-9.]+ (s|min) in all \(calibration [0-9.]+ (s|min), peaks [0-9.]+ (s|min), runs 0\.0 s, figures and report 10 s\); budget 20 s (re)
  plan: cpu at a step CV of [0-9]+ % \(assumed: [^\n]*\) (re)
  plan: a dry run calibrates nothing: 3 models not yet calibrated here are estimated from priors measured on another CPU; the run probes them first (the calibration above) and plans again from this machine
  plan: the budget cannot hold one run of every configuration \(the first runs left out need ~[0-9.]+ (min|h)\): the first runs that fit are kept in the matrix's order, a later, cheaper one where a costly one did not fit, and the rest are left out whole (re)
  plan: left out, repeats first \(the first runs in the matrix's order, then the cheapest to 3 repeats\): 27 runs, ~[0-9.]+ (min|h): [a-z0-9-]+_resnet50_fp32_bs16_run1, .* and 21 more; to add them to this database: rlx run experiments/all\.lua --set db=$RLX_TEST_TMP/trust/over\.db --set devices=cpu --set precision=fp32 --set budget=[0-9]+m\n (re)

trust: budget and protocol overrides are checked
  $ rlx run experiments/all.lua --dry-run --set iters=5 --set target_ci=0.02 --set db=$RLX_TEST_TMP/trust/bad.db
  stderr: experiments/all.lua: --set iters= (a fixed count) and --set target_ci= exclude each other
  [2]

trust: a bad budget is one line
  $ rlx run experiments/all.lua --dry-run --set budget=soon --set db=$RLX_TEST_TMP/trust/bad.db
  stderr: experiments/all.lua: --set budget=: a duration is a number with s, m or h (e.g. 30m, 1.5h, 900s) or none, got 'soon'
  [2]

trust: rlx train --target-ci prints how it stopped
  $ rlx train --model resnet18 --input 16 --classes 3 --batch-size 2 --threads 1 --target-ci 0.5 --max-iters 30
  stdout starts with: resnet18 cpu fp32 batch 2: [0-9.]+ img/s \(median .*\); [0-9]+ iters after [0-9]+ warm-up, CI \+/-[0-9.]+ % \(stopped: (ci|max_iters)\) (re)

trust: rlx train --iters with --target-ci is a usage error
  $ rlx train --model resnet18 --target-ci 0.02 --iters 5
  stderr starts with:
  rlx train: --iters is a fixed count; with --target-ci use --max-iters
  Try 'rlx train --help'
  [2]

trust: bf16 only where native, the plan's note in the report
  $ rlx run tests/e2e/trust/plan.lua
  stdout ends with: plan ok

# The dry run's plan (which counts the calibration a real run makes) and its sweep keep the same runs.
trust: the dry run's plan and sweep keep the same runs
  $ bash tests/e2e/trust/dry_plan_agrees.sh "$RLX" $RLX_TEST_TMP/trust/dry_agrees.db
  ok
  stderr:
