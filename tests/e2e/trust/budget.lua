-- Time budgets and estimates (issue 21 item 2), with stand-in trainers so every number is worked by
-- hand: the estimator (measured and analytic steps, learned warm-up and setup), the caps a sweep
-- gives each run, the rerun of an unsteady run, unique labels across input sizes, and the dry
-- run's estimates.
local tmp = os.getenv("RLX_TEST_TMP") or "/tmp"
local dir = tmp .. "/trust_budget"
os.execute("rm -rf '" .. dir .. "' && mkdir -p '" .. dir .. "'")
local budget = rlx.budget
local failures = 0
local function check(what, ok, detail)
  if not ok then failures = failures + 1 end
  print((ok and "ok\t" or "FAIL\t") .. what .. (ok and "" or ("\t" .. tostring(detail))))
end
local function near(a, b) return type(a) == "number" and math.abs(a - b) <= 1e-9 * math.max(1, math.abs(b)) end

-- Durations.
check("30m", budget.parse_duration("30m") == 1800)
check("1.5h", budget.parse_duration("1.5h") == 5400)
check("90", budget.parse_duration("90") == 90 and budget.parse_duration("90s") == 90)
check("none", budget.parse_duration("none") == nil and budget.parse_duration("0") == nil)
local ok, e = pcall(budget.parse_duration, "soon")
check("bad duration", not ok and rlx.errors.message(e) == "a duration is a number with s, m or h (e.g. 30m, " ..
  "1.5h, 900s) or none, got 'soon'", rlx.errors.message(e))
check("duration text", budget.duration_text(30) == "30 s" and budget.duration_text(95) == "1.6 min" and
  budget.duration_text(4000) == "1.1 h" and budget.duration_text(0.42) == "0.4 s", budget.duration_text(0.42))

-- The analytic step: a compute roof of 100 GFLOP/s and no DRAM figure; resnet18 at 32x32 batch 2
-- has summary.train_flops F, so step = F / 100e9 / 0.45 and a run of 5 timed iterations after
-- warm-up until steady costs (1 + 3 + 5) steps.
local s = rlx.study{name = "b", db = dir .. "/b.db", label = "benv"}
s:store_peaks({fp32_gflops = 100}, {device = "cpu"})
local est = budget.estimator(s, "cpu")
local c18 = {model = "resnet18", precision = "fp32", batch = 2, input = 32, classes = 10, warmup = "auto"}
local F = rlx.model.summary{model = "resnet18", batch = 2, input = 32, classes = 10, layers = false}.train_flops
local step, source = est:step(c18)
check("analytic step", near(step, F / 100e9 / 0.45) and source == "analytic (prior)", source)
check("analytic run", near(est:run(c18, 5), 9 * F / 100e9 / 0.45))
-- A seed model has its measured prior: MobileNetV2 fp32 at 0.33, not the 0.45 of other models.
local cm = {model = "mobilenet_v2", precision = "fp32", batch = 2, input = 32, classes = 10, warmup = "auto"}
local Fm = rlx.model.summary{model = "mobilenet_v2", batch = 2, input = 32, classes = 10, layers = false}.train_flops
check("prior efficiency of a seed model", near(est:step(cm), Fm / 100e9 / 0.33), est:step(cm))
-- A finished run of that configuration: 0.3 s per iteration, warm-up 0.6 + 0.3 + 0.3 = 1.2 s
-- (4 iterations' worth), 3.0 s timed, 4.5 s in all: setup (4.5 - 3 - 1.2) / 0.3 = 1 iteration.
est:observe(c18, {iter_mean_s = 0.3, seconds = 3, total_s = 4.5, warmup_samples = {0.6, 0.3, 0.3}})
step, source = est:step(c18)
check("measured step", near(step, 0.3) and source == "measured", step)
check("learned outside", near(est:outside(c18), 5), est:outside(c18))
-- Batch 4 is analytic at the efficiency seen: (F / 100e9) / 0.3.
local c4 = {model = "resnet18", precision = "fp32", batch = 4, input = 32, classes = 10, warmup = "auto"}
local F4 = rlx.model.summary{model = "resnet18", batch = 4, input = 32, classes = 10, layers = false}.train_flops
check("learned efficiency", near(est:step(c4), (F4 / 100e9) / ((F / 100e9) / 0.3)), est:step(c4))
-- Caps: two configurations of 0.3 s steps... use c18 twice: outside 5, 30 s left, 3..50:
-- need = 2 x (5 + 3) x 0.3 = 4.8 s; n = floor((30 - 3) / 0.6) = 45.
local plan = budget.caps(est, {c18, c18}, 30, {min_iters = 3, max_iters = 50})
check("caps n", plan.n == 45 and plan.fits and near(plan.need_s, 4.8), plan.n)
plan = budget.caps(est, {c18, c18}, 4, {min_iters = 3, max_iters = 50})
check("caps do not fit", plan.n == 3 and not plan.fits, plan.n)
-- Unequal steps share by 1 / sqrt(step): 1 s and 4 s steps, 2 iterations outside each, 60 s left:
-- fixed 2 + 8 = 10 s; n = (floor(k), floor(k / 2)); k = 17 gives 17 and 8 (10 + 17 + 32 = 59 s), k = 18
-- gives 18 and 9 (64 s): ns = {17, 8}; need = (2 + 3) x 1 + (2 + 3) x 4 = 25 s.
local fake = {step = function(_, c) return c.s end, outside = function(_, c) return c.o end}
local uneven = budget.caps(fake, {{s = 1, o = 2}, {s = 4, o = 2}}, 60, {min_iters = 3, max_iters = 50})
check("caps by 1/sqrt(step)", uneven.ns[1] == 17 and uneven.ns[2] == 8 and uneven.n == 17 and
  near(uneven.total_s, 59) and near(uneven.need_s, 25) and uneven.fits, uneven.ns[1] .. " " .. uneven.ns[2])
local caps = budget.next_caps(est, {c18, c18}, 30, {min_iters = 3, max_iters = 50})
check("next caps", caps.max_iters == 45 and near(caps.max_seconds, 45 * 0.3 * 1.5) and caps.max_warmup == 10,
  caps.max_seconds)
plan = budget.caps(est, {c18, c18}, 7, {min_iters = 3, max_iters = 50})
caps = budget.next_caps(est, {c18, c18}, 7, {min_iters = 3, max_iters = 50})
-- floor((7 - 3) / 0.6) = 6 timed iterations; warm-up capped at 6 as well.
check("warm-up capped by scarce iterations", plan.n == 6 and caps.max_warmup == 6, caps.max_warmup)
s:close()

-- A sweep with a budget: stand-in runs of 1 s steps with warm-up samples {2, 1, 1} (4 iterations)
-- and 3 timed iterations; their wall time is milliseconds, so the learned setup is 0.
local seen = {}
local unsteady_once = {m1 = true}
local function trainer(o)
  seen[#seen + 1] = {label = o.label, max_iters = o.max_iters, max_seconds = o.max_seconds, max_warmup = o.max_warmup}
  local stable = not unsteady_once[o.model]
  unsteady_once[o.model] = nil  -- unsteady the first time only
  return {ok = true, images_per_s = o.batch, seconds = 3, iter_s = {mean = 1, sd = 0, median = 1}, iters = 3,
    warmup_used = 3, warmup_samples = {2, 1, 1}, device = "cpu", precision = o.precision, batch = o.batch,
    stability = {stable = stable, drift = stable and 0 or 0.2, cv = 0}, stop_reason = "max_iters", ci_rel = 0}
end
local w = rlx.study{name = "w", db = dir .. "/w.db", label = "e"}
w:store_peaks({fp32_gflops = 100}, {device = "cpu"})
local grid = {models = {"m1", "m2"}, batch = {2}, warmup = "auto", target_ci = 0.02, min_iters = 3, max_iters = 50,
  trainer = trainer, quiet = true, noise_floor = false}
grid.repeats = 1
unsteady_once.m1 = nil
w:sweep(grid)
-- Repeat 2 with 30 s, of which the caps leave 10 % (3 s) for reruns: m1 and m2 each 1 s steps, 4
-- iterations outside: n = floor((30 - e - 3 - 8) / 2) = 9 for m1; then m2 alone:
-- floor((30 - e - 3 - 4) / 1) = 22 (e: the milliseconds already spent).
seen = {}
grid.repeats, grid.budget_s = 2, 30
unsteady_once.m1 = true
local st = w:sweep(grid)
check("caps of the first run", seen[1].max_iters == 9 and near(seen[1].max_seconds, 13.5), seen[1].max_iters)
check("caps of the second run", seen[2].max_iters == 22, seen[2].max_iters)
-- m1 run 2 was unsteady: trained once more (the rerun is steady: unsteady_once is cleared by then).
check("one rerun", st.reruns == 1 and #seen == 3 and seen[3].label == "e_m1_fp32_bs2_run2", st.reruns)
local r2 = w:runs{label = "e_m1_fp32_bs2_run2"}[1]
check("the rerun replaced the run and kept the first", r2.stable == 1 and type(r2.result.earlier_runs) == "table" and
  r2.result.earlier_runs[1].stable == 0, r2.stable)

-- Unique labels: the same matrix at input 48 after input 32.
local u = rlx.study{name = "u", db = dir .. "/u.db", label = "e"}
local base = {models = "m1", batch = 2, iters = 1, warmup = 0, trainer = trainer, quiet = true, noise_floor = false}
base.input = 32
u:sweep(base)
base.input = 48
u:sweep(base)
local labels = {}
for _, r in ipairs(u:runs{}) do labels[#labels + 1] = r.label end
table.sort(labels)
check("labels unique per configuration", table.concat(labels, " ") == "e_m1_fp32_bs2_run1 e_m1_fp32_bs2_run1_in48",
  table.concat(labels, " "))
base.input = 48
check("a stored slot keeps its label", u:plan(base)[1].label == "e_m1_fp32_bs2_run1_in48")

-- A dry run estimates every run from the analytic FLOPs when nothing ran yet.
rlx.flags.dry_run = true
local d = rlx.study{name = "d", db = dir .. "/d.db", label = "e"}
d:store_peaks({fp32_gflops = 100, dram_gbps = 10}, {device = "cpu"})
local dr = d:sweep{models = {"resnet18", "mobilenet_v2"}, batch = {2, 4}, input = 32, classes = 10, warmup = "auto",
  target_ci = 0.02, min_iters = 3, max_iters = 20, repeats = 2}
rlx.flags.dry_run = false
check("dry run estimates every run", dr.to_run == 8 and dr.unestimated == 0 and dr.estimate_s > 0, dr.unestimated)
print(failures == 0 and "budget ok" or (failures .. " failures"))
