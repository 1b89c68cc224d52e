-- Issue 45's plan: repeats first where time is short, the spread measured by the calibration, the
-- counted section of runs with counters, no budget left unused while a left-out run fits, and one
-- plain line after each run. Stand-in estimators and trainers: every number is worked out by hand.
local tmp = (os.getenv("RLX_TEST_TMP") or "/tmp") .. "/trust_repeats_first"
os.execute("rm -rf '" .. tmp .. "' && mkdir -p '" .. tmp .. "'")
local fit, estimate, text = require("rlx.plan.fit"), require("rlx.plan.estimate"), require("rlx.plan.text")
local failures = 0
local function check(what, ok, detail)
  if not ok then failures = failures + 1 end
  print((ok and "ok\t" or "FAIL\t") .. what .. (ok and "" or ("\t" .. tostring(detail))))
end
local function near(a, b, tol) return type(a) == "number" and math.abs(a - b) <= (tol or 1e-9) * math.max(1, math.abs(b)) end
local function list(t) return table.concat(t, ",") end

-- fit.select: three configurations a, b, c whose runs cost 1, 4 and 10 s at their minimum, three
-- repeats each in the sweep's interleaved order (a1 b1 c1 a2 b2 c2 a3 b3 c3; 45 s in all).
local fake = {step = function(_, c) return c.s end, outside = function() return 0 end, min_iters = function() return 1 end}
local configs, rounds, groups = {}, {}, {}
for r = 1, 3 do
  for _, g in ipairs({{"a", 1}, {"b", 4}, {"c", 10}}) do
    configs[#configs + 1], rounds[#configs + 1], groups[#configs + 1] = {s = g[2]}, r, g[1]
  end
end
local S = {min_iters = 1, max_iters = 1}
local sel = fit.select(fake, configs, 45, S, rounds, groups, 2)
check("select: everything fits", #sel.keep == 9 and #sel.left_out == 0 and sel.short == nil, list(sel.keep))
-- 30 s: the first runs (15 s), then every second one (15 s, all of them fit), nothing left for a third.
sel = fit.select(fake, configs, 30, S, rounds, groups, 2)
check("select: two of everything, breadth first", list(sel.keep) == "1,2,3,4,5,6" and sel.short == nil and
  sel.room[7] == 0, list(sel.keep))
-- 25 s: the first runs (15 s) leave 10, too little for every second run (15 s): the plan says so
-- (short) and fills by cost: a2, a3 (1 + 1), b2, b3 (4 + 4) use the 10 s; c keeps one run.
sel = fit.select(fake, configs, 25, S, rounds, groups, 2)
check("select: short of two of everything, the cheapest reach 3 repeats",
  list(sel.keep) == "1,2,3,4,5,7,8" and list(sel.left_out) == "6,9" and near(sel.need_s, 25) and
  sel.short and near(sel.short.need_s, 15) and near(sel.short.left_s, 10) and sel.short.min_repeats == 2,
  list(sel.keep) .. " / " .. list(sel.left_out))
-- 12 s: not even one of each (c1 needs 10, 7 is left after a1 and b1): short of one run; the rest
-- by cost still brings a to 3 repeats (1 + 1) and b to 2 (4), and 1 s is left, less than any run.
sel = fit.select(fake, configs, 12, S, rounds, groups, 2)
check("select: short of one of each", list(sel.keep) == "1,2,4,5,7" and sel.short.min_repeats == 1 and
  near(sel.short.need_s, 10) and near(sel.room[3], 7) and near(sel.room[8], 1), list(sel.keep))

-- The spread from the calibration: layout probes {1.0, 1.1} (CV 0.0707 / 1.05 = 6.734 %) and
-- {2.0, 2.0, 2.2} (0.1155 / 2.0667 = 5.587 %): the median of the two, 6.161 %, until runs here.
local study = rlx.study{name = "rf", db = tmp .. "/rf.db", label = "rfenv"}
study:store_peaks({fp32_gflops = 100, dram_gbps = 10}, {device = "cpu"})
local cals = {["resnet50|fp32|32"] = {model = "resnet50", precision = "fp32", input = 32, per_image_s = 0.25, setup_s = 0,
  probe = {samples = {channels_last = {1.0, 1.1}, contiguous = {2.0, 2.0, 2.2}}}}}
local est = estimate.estimator(study, "cpu", {calibrations = cals})
local c = {model = "resnet50", precision = "fp32", input = 32, batch = 4, device = "cpu"}
check("cv from the calibration", near(est:cv(c), (0.0707107 / 1.05 + 0.1154701 / (6.2 / 3)) / 2, 1e-6), est:cv(c))
check("cv text", est:cv_text() == "a step CV of 6.2 % (the median of 2 layout probes of the calibration on this " ..
  "machine, until its runs say more)", est:cv_text())
-- The counted section: calibrated step 0.25 x 4 = 1 s, set-up 0 + RUN_OVERHEAD_S (1 s), warm-up 3,
-- so 1 + 3 = 4 steps outside the timed ones; with counters, COUNTER_STEPS (23.8) more.
local counted = {model = "resnet50", precision = "fp32", input = 32, batch = 4, device = "cpu", counters = true}
check("outside: no counters", near(est:outside(c), 4), est:outside(c))
check("outside: counters' prior", near(est:outside(counted), 27.8), est:outside(counted))
-- A run with counters: 1 s steps, 5 s timed, 2 s of warm-up, 10 s counted, 20 s in all: set-up
-- 20 - 5 - 2 - 10 = 3 s, counted section 10 steps, warm-up 2 steps: 3 + 2 + 10 = 15.
est:observe(counted, {iter_mean_s = 1, seconds = 5, total_s = 20, warmup_samples = {1, 1}, counted_s = 10, cv = 0.02})
check("outside: counters learned", near(est:outside(counted), 15) and near(est:cv(counted), 0.02), est:outside(counted))
study:close()

-- The counters' prior is the H200 study's: the median of counter_iters x counted_iter_s /
-- iter_mean_s over its 9 runs. Planned from its calibrations alone (no run seen), the runs' least
-- cost (accept_ci 5 % at the probes' spread, set-up, warm-up, counted section) is 60.9 s against
-- the 51.7 s they took; without the counted section and at the assumed 5 % spread it was 30.6 s
-- (the plan kept 19 runs where 9 fitted).
os.execute("cp '" .. (os.getenv("RLX_SOURCE_DIR") or ".") .. "/tests/fixtures/studies/h200-default-study.db' '" ..
  tmp .. "/h200.db'")
local h = rlx.db.open(tmp .. "/h200.db")
local runs, steps, took = h:runs{}, {}, 0
local env = runs[1].environment_id
local hcals = {}
for _, cal in ipairs(h:calibrations(env, "cuda")) do
  cal.setup_s = cal.probe.setup_s
  hcals[rlx.calibrate.key(cal.model, cal.precision, cal.input)] = cal
end
local none = {name = "none", env_id = env, db = {runs = function() return {} end},
  peaks = function(_, kind) return h:peaks(env, kind) end}
local hest = estimate.estimator(none, "cuda", {calibrations = hcals})
local HS, planned = {min_iters = 4, max_iters = 50, accept_ci = 0.05, target_ci = 0.02}, 0
for _, r in ipairs(runs) do
  steps[#steps + 1] = r.counter_iters * r.counted_iter_s / r.iter_mean_s
  took = took + r.total_s
  planned = planned + hest:run(r.config, hest:min_iters(r.config, HS))
end
h:close()
check("COUNTER_STEPS is the H200's median", #steps == 9 and
  string.format("%.1f", rlx.stats.median(steps)) == string.format("%.1f", estimate.COUNTER_STEPS), rlx.stats.median(steps))
check("the H200 plan counts its counters", string.format("%.1f %.1f", planned, took) == "60.9 51.7",
  string.format("%.1f %.1f", planned, took))

-- The line after each run.
local line = text.run_line("[3/27]", "x_resnet50_fp32_bs16_run1", {ok = true, images_per_s = 27.34, ci_rel = 0.0161,
  target_ci = 0.02, iters = 12}, 84, 738, 1626)
check("run line", line == "[3/27] x_resnet50_fp32_bs16_run1: 27.3 images/s, CI ±1.6 % (target ±2 %), 12 iterations, " ..
  "1.4 min; study 12.3 min in, ~27.1 min left", line)
line = text.run_line("[4/27]", "x_vgg16_fp32_bs64_run1", {ok = false, error = "out of memory"}, 12, 750)
check("run line: failed", line == "[4/27] x_vgg16_fp32_bs64_run1: failed after 12 s; study 12.5 min in", line)

-- No budget left unused while a left-out run fits: the calibration says vgg16 takes 10 s steps
-- (2.5 s per image at batch 4), so with 20 s (18 s beside the rerun reserve) its run, first in the
-- sweep, needs 1 + (3 + 7) x 10 = 101 s and is left out. resnet50 then trains 100x faster than its
-- calibration (0.01 s steps), vgg16's estimate follows (0.1 s steps) and it fits after all.
local w = rlx.study{name = "w", db = tmp .. "/w.db", label = "wenv"}
w:store_peaks({fp32_gflops = 100, dram_gbps = 10}, {device = "cpu"})
for _, m in ipairs({{"resnet50", 0.25}, {"vgg16", 2.5}}) do
  w.db:put_calibration(w.env_id, {device = "cpu", model = m[1], precision = "fp32", input = 32,
    memory_format = "contiguous", per_image_s = m[2], probe = {setup_s = 0}})
end
local calls = {}
local function trainer(o)
  calls[#calls + 1] = o.model
  local step = 0.01
  return {ok = true, samples = {step, step, step, step}, warmup_samples = {step}, seconds = 4 * step, iters = 4,
    iter_s = {mean = step, sd = 0, median = step}, images_per_s = o.batch / step, batch = o.batch, ci_rel = 0.01,
    target_ci = 0.02, precision = o.precision, device = "cpu", stability = {stable = true, cv = 0.02}, stop_reason = "ci"}
end
local said = {}
local real_stderr = io.stderr
io.stderr = {write = function(_, ...) for _, s in ipairs({...}) do said[#said + 1] = s end end}  -- luacheck: ignore 122
local stats = w:sweep{models = {"vgg16", "resnet50"}, batch = 4, input = 32, repeats = 1, warmup = "auto",
  target_ci = 0.02, accept_ci = 0.05, min_iters = 4, max_iters = 20, budget_s = 20, trainer = trainer,
  noise_floor = false}
io.stderr = real_stderr  -- luacheck: ignore 122
local log = table.concat(said)
check("left out, then trained when it fits", stats.ran == 2 and #stats.left_out == 0 and list(calls) == "resnet50,vgg16",
  list(calls) .. " / " .. #stats.left_out)
check("the sweep says it was left out", log:find("[1/2] wenv_vgg16_fp32_bs4_run1: left out, it needs ~1.7 min", 1, true)
  ~= nil, log)
check("the sweep says it fits now", log:find("wenv_vgg16_fp32_bs4_run1: left out before, it fits now", 1, true) ~= nil,
  log)
check("a line after each run", log:match("%[2/2%] wenv_resnet50_fp32_bs4_run1: 400 images/s, CI ±1%.0 %% %(target " ..
  "±2 %%%), 4 iterations, [0-9.]+ s; study [0-9.]+ s in, ~[0-9.]+ s left\n") ~= nil, log)
w:close()
print(failures == 0 and "repeats first ok" or (failures .. " failures"))
