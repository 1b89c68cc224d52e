-- Issue 30 and 33: the plan comes from this machine. With stand-in trainers, so every number is
-- worked by hand: rlx.calibrate's probe (the faster layout, its margin, seconds per image, set-up),
-- issue 55 item 8's verdict (at the runs' batch, the margin's 95 % CI from rlx.stats, a tie settled
-- by more rounds and stated within its CI, runs that shared their cores set aside), stored once per
-- environment and reused, a contended probe neither stored nor deciding; a sweep's
-- runs take the calibrated layout unless the user chose one; the estimator's "calibrated" steps and
-- the ratio it learns from real runs; rlx.budget.iters_for and trim; a sweep that leaves out, whole,
-- the runs that no longer fit; the plan's row with the command that adds them.
local tmp = os.getenv("RLX_TEST_TMP") or "/tmp"
local dir = tmp .. "/trust_calibrate"
os.execute("rm -rf '" .. dir .. "' && mkdir -p '" .. dir .. "'")
local budget, calibrate = rlx.budget, rlx.calibrate
local failures = 0
local function check(what, ok, detail)
  if not ok then failures = failures + 1 end
  print((ok and "ok\t" or "FAIL\t") .. what .. (ok and "" or ("\t" .. tostring(detail))))
end
local function near(a, b) return type(a) == "number" and math.abs(a - b) <= 1e-9 * math.max(1, math.abs(b)) end

-- A stand-in trainer: vgg16 steps take 2 s channels_last and 1 s contiguous at batch 4 (0.5 and
-- 0.25 s per image), other models 1 s either way; `busy` makes it report contention.
local calls, busy = {}, false
local function trainer(o)
  calls[#calls + 1] = o
  local per_image = (o.model == "vgg16" and o.memory_format == "channels_last") and 0.5 or 0.25
  local step = per_image * o.batch
  local n = o.iters or 2
  local samples = {}
  for i = 1, n do samples[i] = step end
  return {ok = true, samples = samples, warmup_samples = {2 * step}, seconds = step * n + 0.1 * step,
    contended = busy, memory_format = o.memory_format, iter_s = {mean = step, sd = 0, median = step},
    images_per_s = o.batch / step, batch = o.batch, precision = o.precision, device = "cpu",
    stability = {stable = true, cv = 0.02}, stop_reason = "ci", ci_rel = 0.01}
end

-- The probe: both layouts, the faster wins; margin 2 s / 1 s (every run alike: a CI of zero width,
-- rlx.stats.ratio_ci95); seconds per image 1 s / 4 images.
local c = calibrate.probe{model = "vgg16", batch = 4, input = 32, trainer = trainer}
check("probe: contiguous wins", c.memory_format == "contiguous" and c.probe.verdict == "clear", c.memory_format)
check("probe: margin 2.0, its CI", near(c.margin, 2.0) and near(c.probe.ci.low, 2.0) and near(c.probe.ci.high, 2.0),
  c.margin)
check("probe: seconds per image", near(c.per_image_s, 0.25), c.per_image_s)
check("probe: the layouts take turns, three times, 1 warm-up + 1 timed", #calls == 6 and
  calls[1].memory_format == "channels_last" and calls[2].memory_format == "contiguous" and
  calls[3].memory_format == "channels_last" and calls[4].memory_format == "contiguous" and
  calls[5].memory_format == "channels_last" and calls[6].memory_format == "contiguous" and calls[1].warmup == 1 and
  calls[1].iters == 1 and calls[1].batch == 4, #calls)
check("probe: every timed iteration kept, each run's mean", #c.probe.samples.contiguous == 3 and
  #c.probe.run_s.contiguous == 3, #c.probe.samples.contiguous)
check("probe: text states the batch and the CI", calibrate.text(c):find("^vgg16 fp32: contiguous, 2%.00x faster than " ..
  "channels_last at batch 4 %(95 %% CI 2%.00%-2%.00%)%; 0%.25 s/image, probe 0 s in 3 rounds$") ~= nil, calibrate.text(c))
-- Issue 55 item 8: the probe trains at the batch the runs train at (the sweep's smallest, or rlx
-- train's), PROBE_BATCH on a CPU when none is named.
calls = {}
calibrate.probe{model = "resnet50", input = 32, trainer = trainer}
check("probe: no batch named, PROBE_BATCH (16)", calls[1].batch == 16 and calibrate.PROBE_BATCH == 16, calls[1].batch)

-- The verdict (rlx.calibrate.judge) on hand-made runs (one value a run), its CI
-- rlx.stats.ratio_ci95's: the slower layout's mean over the faster one's.
local function same_ci(j, a, b)
  local r = rlx.stats.ratio_ci95(a, b)
  return near(j.margin, r.ratio) and near(j.ci.low, r.low) and near(j.ci.high, r.high)
end
local cl, ct = {1.0, 1.02, 0.98, 1.0}, {1.2, 1.22, 1.18, 1.2}
local j = calibrate.judge{channels_last = cl, contiguous = ct}
check("judge: clear, channels_last 1.20x, CI from rlx.stats", j.verdict == "clear" and
  j.memory_format == "channels_last" and same_ci(j, ct, cl) and j.ci.low > 1.15 and j.ci.high < 1.25, j.verdict)
j = calibrate.judge{channels_last = ct, contiguous = cl}
check("judge: clear, contiguous", j.verdict == "clear" and j.memory_format == "contiguous" and same_ci(j, ct, cl))
-- Identical work: the CI's top within NEAR, a tie; the default kept, its margin the other's over it.
local same_a, same_b = {1.0, 1.01, 0.99, 1.0}, {1.01, 1.0, 1.0, 0.99}
j = calibrate.judge{channels_last = same_a, contiguous = same_b}
check("judge: a tie keeps the default", j.verdict == "tie" and j.memory_format == "channels_last" and
  same_ci(j, same_b, same_a) and calibrate.tie_within(j.ci) == 2, j.verdict .. " " .. tostring(calibrate.tie_within(j.ci)))
-- contiguous timed faster but inside the noise: open, the default (margin below 1: the other faster).
local noisy_a, noisy_b = {1.0, 1.3, 0.9, 1.2}, {1.1, 1.0, 0.85, 1.05}
j = calibrate.judge{channels_last = noisy_a, contiguous = noisy_b}
check("judge: open, the default", j.verdict == "open" and j.memory_format == "channels_last" and j.margin < 1 and
  same_ci(j, noisy_b, noisy_a), j.verdict)
check("judge: one layout alone", calibrate.judge{contiguous = {1}}.verdict == "alone" and
  calibrate.judge{contiguous = {1}}.memory_format == "contiguous" and calibrate.judge{} == nil)

-- The one wording of a margin (plan, `rlx env`, `rlx train --verbose`, the report): the batch it was
-- decided at and the CI, for each verdict.
local function worded(layout, margin, verdict, low, high, rounds)
  return calibrate.margin_text{memory_format = layout, margin = margin, probe = {batch = 16, verdict = verdict,
    rounds = rounds or 2, ci = low and {low = low, high = high, df = 6}}}
end
check("margin text: clear, with its CI", worded("contiguous", 1.13, "clear", 1.08, 1.18) ==
  "1.13x faster than channels_last at batch 16 (95 % CI 1.08-1.18)", worded("contiguous", 1.13, "clear", 1.08, 1.18))
check("margin text: a tie, within its CI", worded("channels_last", 0.99, "tie", 0.97, 1.02) == "a tie with " ..
  "contiguous at batch 16 (within ±4 %: 95 % CI 0.97-1.02): the default, which costs at most 4 %",
  worded("channels_last", 0.99, "tie", 0.97, 1.02))
check("margin text: still open after the extra rounds", worded("channels_last", 0.95, "open", 0.88, 1.03, 4) ==
  "a tie with contiguous at batch 16 after 4 rounds (within ±14 %: 95 % CI 0.88-1.03, the machine's noise): the " ..
  "default, which may cost up to 14 %", worded("channels_last", 0.95, "open", 0.88, 1.03, 4))
-- The default's cost is how much faster the other layout may be: none when the CI's bottom is 1 or
-- more (VGG-16 on a 2-core Zen 5, an unflagged slow run of contiguous's widening the CI upward).
check("margin text: open, the other no faster", worded("channels_last", 1.17, "open", 0.99, 1.36, 6) == "a tie with " ..
  "contiguous at batch 16 after 6 rounds (within ±36 %: 95 % CI 0.99-1.36, the machine's noise): the default, which " ..
  "may cost up to 2 %" and worded("channels_last", 1.17, "open", 1.0, 1.36, 6):find("the default, which the CI " ..
  "finds no slower$") ~= nil and calibrate.default_cost{low = 0.97, high = 1.02} == 4 and
  calibrate.default_cost{low = -0.1, high = 2} == nil, worded("channels_last", 1.17, "open", 0.99, 1.36, 6))
check("margin text: the other failed", calibrate.margin_text{memory_format = "contiguous", probe = {batch = 16,
  verdict = "alone"}} == "channels_last failed at batch 16")
-- A probe stored before issue 55 (no verdict: best steps at batch 2, no CI) keeps its words of then
-- where it is shown (an older database's report, `rlx env`); it is measured again before use.
check("margin text, before issue 55: a win", calibrate.margin_text{memory_format = "contiguous", margin = 1.42} ==
  "1.42x faster than channels_last", calibrate.margin_text{memory_format = "contiguous", margin = 1.42})
check("margin text, before issue 55: a tie", calibrate.margin_text{memory_format = "channels_last", margin = 0.97} ==
  "contiguous within 3 %, a tie: the default", calibrate.margin_text{memory_format = "channels_last", margin = 0.97})
check("margin text, before issue 55: at the edge", calibrate.margin_text{memory_format = "channels_last",
  margin = 1.05} == "contiguous within 5 %, a tie: the default")
check("margin text, before issue 55: the other failed", calibrate.margin_text{memory_format = "contiguous"} ==
  "channels_last failed")
check("a probe from before issue 55 does not hold", not calibrate.current({probe = {batch = 2, noise = 1.03}}, "cpu") and
  not calibrate.current({margin = 1.2}, "cuda") and calibrate.current({probe = {verdict = "clear"}}, "cuda"))
-- The report's design section words each calibration with the same text.
-- Only the calibrations of what the study ran there are listed (the environment's database may
-- hold other studies' models: mobilenet_v2 here), and a model whose runs used another layout (a
-- memory_format the study gave) says so.
local sections = require("rlx.report.sections")
local function run(model, layout, result)
  return {env = "epyc-2c", device = "cpu", model = model, precision = "fp32", input = 224, memory_format = layout,
    result = result}
end
-- A calibration as a probe stores it since issue 55: decided at batch 16, clear beyond 5 % (a CI of
-- +/-0.05 around its margin), else a tie (+/-0.02).
local function cal(model, input, layout, margin)
  local clear = margin > 1.05
  local w = clear and 0.05 or 0.02
  return {env = "epyc-2c", device = "cpu", model = model, precision = "fp32", input = input, memory_format = layout,
    margin = margin, probe = {batch = 16, rounds = 2, verdict = clear and "clear" or "tie",
    ci = {low = margin - w, high = margin + w, df = 6}}}
end
local texts = sections.calibration_texts{calibrations = {cal("vgg16", 224, "contiguous", 1.42),
  cal("resnet50", 224, "channels_last", 0.97), cal("mobilenet_v2", 224, "channels_last", 1.3),
  cal("vgg16", 64, "contiguous", 1.1)},
  runs = {run("vgg16", "contiguous"), run("resnet50", "channels_last"), run("resnet50", "contiguous")}}
check("report: only what the study ran", #texts == 2, #texts)
local cuda_run = run("mobilenet_v2", "channels_last")
cuda_run.device = "cuda:0"
check("report: a CPU calibration is not listed for a model run only on CUDA", #sections.calibration_texts{
  calibrations = {cal("mobilenet_v2", 224, "channels_last", 1.3)}, runs = {cuda_run}} == 0)
check("report: a win, its batch and CI", texts[1] == "epyc-2c: vgg16 fp32 at 224x224, contiguous (1.42x faster " ..
  "than channels_last at batch 16 (95 % CI 1.37-1.47))", texts[1])
check("report: a tie within its CI, runs in another layout too", texts[2] == "epyc-2c: resnet50 fp32 at 224x224, " ..
  "channels_last (a tie with contiguous at batch 16 (within ±6 %: 95 % CI 0.95-0.99): the default, which costs at " ..
  "most 6 %), but its runs used contiguous, as the study gave", texts[2])
-- A probe from before issue 55 (an older database's) keeps its words, and the line says it had no CI.
local older = cal("vgg16", 224, "contiguous", 1.46)
older.probe = {batch = 2, noise = 1.03}
local older_text = sections.calibration_texts{calibrations = {older}, runs = {run("vgg16", "contiguous")}}[1]
check("report: an older probe says it had no CI", older_text == "epyc-2c: vgg16 fp32 at 224x224, contiguous (1.46x " ..
  "faster than channels_last; an older probe: best steps at batch 2, no CI)", older_text)
-- Calibrations kept per thread count: each is listed where runs used its threads, named by them
-- when the model ran with several counts there; one with threads 0 (not recorded) counts for all.
local function at(threads, row) row.threads = threads return row end
local function run_t(threads, model, layout) local r = run(model, layout) r.threads = threads return r end
texts = sections.calibration_texts{calibrations = {at(1, cal("vgg16", 224, "channels_last", 1.2)),
  at(2, cal("vgg16", 224, "contiguous", 1.42)), at(4, cal("vgg16", 224, "contiguous", 1.5)),
  at(2, cal("resnet50", 224, "channels_last", 1.3))},
  runs = {run_t(1, "vgg16", "channels_last"), run_t(2, "vgg16", "contiguous"), run_t(2, "resnet50", "channels_last")}}
check("report: one text per thread count the runs used", #texts == 3 and
  texts[1] == "epyc-2c: vgg16 fp32 at 224x224, 1 thread, channels_last (1.20x faster than contiguous at batch 16 " ..
    "(95 % CI 1.15-1.25))" and
  texts[2] == "epyc-2c: vgg16 fp32 at 224x224, 2 threads, contiguous (1.42x faster than channels_last at batch 16 " ..
    "(95 % CI 1.37-1.47))" and
  texts[3] == "epyc-2c: resnet50 fp32 at 224x224, channels_last (1.30x faster than contiguous at batch 16 (95 % CI " ..
    "1.25-1.35))",
  table.concat(texts, " / "))
-- What each run's process chose at start, counted by kind, from the `startup` fields of its result
-- (engine/startup/startup.h); a result without them (an older database's, before the store read
-- their notes) counts nowhere.
local idle = {choice = "libgomp_default", other_cores = 0, sample_ms = 80}
local shared = {choice = "short_spin", other_cores = 2, sample_ms = 80, spin_ns = 27.74, spin_count = 9733}
local thp = {choice = "not_asked", kernel_mode = "madvise"}
local started = sections.process_settings_text{runs = {
  run("vgg16", "contiguous", {startup = {openmp_wait = idle, huge_pages = thp}}),
  run("vgg16", "contiguous", {startup = {openmp_wait = shared, huge_pages = thp}}),
  run("resnet50", "channels_last", {startup = {openmp_wait = idle, huge_pages = thp}}),
  run("resnet50", "channels_last", {})}}
check("report: process settings counted", started == "OpenMP waiting: libgomp's default in 2 runs, a short spin " ..
  "(other processes busy at start) in 1 run; huge pages: not asked in 3 runs", started)
local text = require("rlx._startup_text")
check("the OpenMP choice in words, from its fields", text.openmp(shared) == "openmp: GOMP_SPINCOUNT=9733, a short " ..
  "spin before sleeping (0.27 ms at 27.74 ns a spin, measured): 2.0 other cores busy at start (a long spin holds a " ..
  "core the other thread needs)", text.openmp(shared))
check("the user's OpenMP settings in words", text.openmp({choice = "environment", environment = {GOMP_SPINCOUNT =
  "123", OMP_WAIT_POLICY = "active"}}) == "openmp: waiting left as the environment sets it (OMP_WAIT_POLICY=active, " ..
  "GOMP_SPINCOUNT=123)")
check("report: no process settings recorded", sections.process_settings_text{runs = {run("vgg16", "contiguous")}} ==
  nil)
-- Probes on scripted runs: steps[layout][n] is the n-th run's timed steps in that layout, `busy`
-- when other processes shared its cores (the run's contention check).
local function scripted(steps)
  local n = {}
  return function(o)
    calls[#calls + 1] = o
    n[o.memory_format] = (n[o.memory_format] or 0) + 1
    local got = steps[o.memory_format][n[o.memory_format]]
    local samples = {}
    for i, x in ipairs(got) do samples[i] = x end
    return {ok = true, samples = samples, warmup_samples = {got[1]}, memory_format = o.memory_format,
      contended = got.busy == true}
  end
end
-- A run is one value, its mean step: steps of one run are not independent of each other. Runs of
-- two steps each, their means alike (1.1 s, 2.1 s) although their steps are not: a CI of zero width.
calls = {}
local paired = calibrate.probe{model = "vgg16", batch = 2, iters = 2, trainer = scripted{
  channels_last = {{1.0, 1.2}, {1.1, 1.1}, {1.05, 1.15}}, contiguous = {{2.0, 2.2}, {2.1, 2.1}, {2.0, 2.2}}}}
check("a run is one value, its mean", paired.memory_format == "channels_last" and #paired.probe.samples.contiguous == 6
  and #paired.probe.run_s.contiguous == 3 and near(paired.probe.run_s.contiguous[1], 2.1) and
  near(paired.margin, 2.1 / 1.1) and near(paired.probe.ci.low, 2.1 / 1.1) and near(paired.probe.ci.high, 2.1 / 1.1),
  paired.margin)
-- Undecided after three rounds (the CI of the ratio straddles 1 and NEAR), three more at the same
-- batch, still undecided: a tie within the CI, the default kept, and the text says how far apart
-- the layouts may be (the default's worst cost).
calls = {}
local open = calibrate.probe{model = "resnet50", batch = 2, trainer = scripted{
  channels_last = {{1.0}, {1.3}, {0.9}, {1.2}, {1.1}, {1.0}}, contiguous = {{1.1}, {1.0}, {0.85}, {1.05}, {1.2}, {0.95}}}}
local open_j = calibrate.judge(open.probe.run_s)
check("undecided: three more rounds at the same batch", #calls == 12 and open.probe.rounds == 6 and
  calls[12].batch == 2, #calls)
check("undecided: a tie, the default kept", open.memory_format == "channels_last" and open.probe.verdict == "open" and
  open_j.verdict == "open" and near(open.margin, open_j.margin) and near(open.probe.ci.high, open_j.ci.high),
  open.probe.verdict)
check("undecided: its text", calibrate.margin_text(open) == string.format("a tie with contiguous at batch 2 after 6 " ..
  "rounds (within ±%d %%: 95 %% CI %.2f-%.2f, the machine's noise): the default, which may cost up to %d %%",
  calibrate.tie_within(open.probe.ci), open.probe.ci.low, open.probe.ci.high, calibrate.default_cost(open.probe.ci)),
  calibrate.margin_text(open))
-- Settled by a fourth round: channels_last's second run was slow once (1.9 s beside 1.4), the CI
-- too wide; a fourth round of a steady run separates the layouts: contiguous, after 4 rounds (8 runs).
calls = {}
local settled = calibrate.probe{model = "vgg16", batch = 2, trainer = scripted{
  channels_last = {{1.4}, {1.9}, {1.42}, {1.41}, {9}, {9}}, contiguous = {{1.0}, {1.01}, {1.02}, {1.0}, {9}, {9}}}}
check("settled by a fourth round", #calls == 8 and settled.probe.rounds == 4 and settled.memory_format == "contiguous" and
  settled.probe.verdict == "clear" and settled.probe.ci.low > 1, calibrate.margin_text(settled))
-- A run that shared its cores (a 5 s step beside 1.2) is set aside: the verdict is made from the
-- other runs while each layout keeps two of them, and the probe is not marked contended.
calls = {}
local aside = calibrate.probe{model = "vgg16", batch = 2, trainer = scripted{
  channels_last = {{5.0, busy = true}, {1.19}, {1.2}, {1.21}}, contiguous = {{1.0}, {0.99}, {1.0}, {1.01}}}}
check("a shared run set aside", aside.memory_format == "contiguous" and aside.probe.verdict == "clear" and
  aside.probe.rounds == 3 and aside.probe.set_aside == 1 and not aside.contended and
  #aside.probe.samples.channels_last == 3 and near(aside.margin, 1.195 / ((1.0 + 0.99 + 1.0) / 3)),
  tostring(aside.margin))
-- Every run shared its cores: six rounds, and the verdict, resting on them, marks the probe contended
-- (rlx.calibrate.ensure then probes again, and keeps neither when the second is shared too).
calls = {}
local function busy_runs(x)
  local out = {}
  for i = 1, 6 do out[i] = {x, busy = true} end
  return out
end
local shared_probe = calibrate.probe{model = "vgg16", batch = 2, trainer = scripted{channels_last = busy_runs(1.2),
  contiguous = busy_runs(1.0)}}
check("every run shared: six rounds, contended", #calls == 12 and shared_probe.contended and
  shared_probe.probe.contended and shared_probe.memory_format == "contiguous", #calls)
local ok, err = pcall(calibrate.probe, {model = "vgg16", batch = 4, trainer = function() return {ok = false,
  error = "out of memory"} end})
check("probe: no layout trains", not ok and tostring(err):find("rlx.calibrate.probe: vgg16 fp32 on cpu trained in no " ..
  "memory layout: out of memory", 1, true) ~= nil, tostring(err))

-- ensure: probes what is missing, stores it, and a second study of the same environment reuses it;
-- a probe that shared its cores runs again, and a second one that does too is not kept.
local s = rlx.study{name = "c", db = dir .. "/c.db", label = "cenv"}
calls = {}
local fams = {{model = "vgg16", precision = "fp32", input = 32, batch = 16},
  {model = "resnet50", precision = "fp32", input = 32, batch = 16}}
local cals, spent = calibrate.ensure(s, "cpu", fams, {trainer = trainer, quiet = true})
check("ensure: 2 models x 2 layouts x 3 rounds", #calls == 12 and spent >= 0, #calls)
check("ensure: keyed", cals["vgg16|fp32|32"].memory_format == "contiguous" and
  cals["resnet50|fp32|32"].memory_format == "channels_last", tostring(cals["resnet50|fp32|32"].memory_format))
check("ensure: stored", #s.db:calibrations(s.env_id, "cpu") == 2)
calls = {}
cals = calibrate.ensure(s, "cpu", fams, {trainer = trainer, quiet = true})
check("ensure: reused, nothing probed", #calls == 0 and cals["vgg16|fp32|32"].memory_format == "contiguous" and
  near(cals["vgg16|fp32|32"].per_image_s, 0.25), #calls)
-- A busy machine: every run shared its cores, so each probe takes its six rounds and decides
-- nothing that is kept.
busy, calls = true, {}
local mob = calibrate.ensure(s, "cpu", {{model = "mobilenet_v2", precision = "fp32", input = 32, batch = 16}},
  {trainer = trainer, quiet = true})["mobilenet_v2|fp32|32"]
busy = false
check("contended: probed twice, chosen for this study", mob.contended and #calls == 24 and
  mob.memory_format == "channels_last" and calibrate.text(mob):find("not kept, probed again next time", 1, true) ~= nil,
  calibrate.text(mob))
check("contended: not stored", #s.db:calibrations(s.env_id, "cpu") == 2)

-- A CPU layout holds for the thread count it was probed with (nil: one per CPU this process may
-- run on); one stored before probes recorded threads, or a CUDA one, holds for any.
check("current: same threads", calibrate.current({probe = {threads = 2, verdict = "clear"}}, "cpu", 2))
check("current: other threads", not calibrate.current({probe = {threads = 2, verdict = "clear"}}, "cpu", 1))
check("current: the default threads", calibrate.current({probe = {threads = rlx.env.usable_cpus(), verdict = "tie"}},
  "cpu"))
check("current: not recorded", calibrate.current({probe = {verdict = "clear"}}, "cpu", 1))
check("current: cuda", calibrate.current({probe = {threads = 2, verdict = "open"}}, "cuda", 1))
check("kind", calibrate.kind("cuda:1") == "cuda" and calibrate.kind("cuda") == "cuda" and calibrate.kind("cpu") == "cpu")

-- Two thread counts keep two probes (schema 7: threads in the key), each found by its count, so a
-- machine used with 1 and 2 threads (a cgroup quota, a cpuset) does not probe again and overwrite
-- each time; the probes above recorded no threads (the stand-in returns none): they serve any count.
local function threaded(o)
  local r = trainer(o)
  r.threads = o.threads or rlx.env.usable_cpus()
  return r
end
local r18 = {{model = "resnet18", precision = "fp32", input = 32, batch = 4}}
calls = {}
calibrate.ensure(s, "cpu", r18, {trainer = threaded, quiet = true, threads = 1})
calibrate.ensure(s, "cpu", r18, {trainer = threaded, quiet = true, threads = 2})
check("threads: a probe for each count", #calls == 12 and calls[1].threads == 1 and calls[7].threads == 2, #calls)
calls = {}
calibrate.ensure(s, "cpu", r18, {trainer = threaded, quiet = true, threads = 1})
calibrate.ensure(s, "cpu", r18, {trainer = threaded, quiet = true, threads = 2})
check("threads: both kept, neither probed again", #calls == 0, #calls)
check("threads: each found by its count", calibrate.stored(s, "cpu", 1)["resnet18|fp32|32"].threads == 1 and
  calibrate.stored(s, "cpu", 2)["resnet18|fp32|32"].threads == 2 and calibrate.stored(s, "cpu", 3)["resnet18|fp32|32"] == nil)
check("threads: an unrecorded probe serves any count", calibrate.stored(s, "cpu", 7)["vgg16|fp32|32"] ~= nil and
  calibrate.stored(s, "cpu", 7)["vgg16|fp32|32"].threads == 0)

-- The sweep's runs take the calibrated layout; the user's memory_format wins. channels_last is
-- rlx.train's default for a CNN, so a calibration that chose it leaves the configuration as it was
-- without one: the same resume key, and a run stored before calibrations counts as done.
local plan0 = s:plan{models = {"resnet50"}, batch = 16, input = 32}
local plan = s:plan{models = {"vgg16", "resnet50"}, batch = 16, input = 32, calibration = cals}
check("sweep: calibrated layouts", plan[1].config.memory_format == "contiguous" and
  plan[2].config.memory_format == nil, plan[1].config.memory_format)
-- Without a calibration given, a sweep takes the one stored for this machine (issue 48 item 12, the
-- layout rule): vgg16's contiguous, the same configuration as with `calibration = cals`.
local stored_plan = s:plan{models = {"vgg16"}, batch = 16, input = 32}
check("sweep: channels_last calibrated, the resume key unchanged", plan[2].key == plan0[1].key and
  plan[1].key == stored_plan[1].key and stored_plan[1].config.memory_format == "contiguous" and
  stored_plan[1].layout.rule == "calibrated", plan[2].key .. " " .. plan0[1].key)
plan = s:plan{models = {"vgg16"}, batch = 16, input = 32, calibration = cals, memory_format = "channels_last"}
check("sweep: the user's choice wins", plan[1].config.memory_format == "channels_last")

-- The estimator: no peaks, no runs: vgg16 batch 16 is 0.25 x 16 = 4 s ("calibrated"); after a
-- real run of resnet50 batch 16 at 6 s per step (0.375 s per image, 1.5x its probe's 0.25), the
-- ratio 1.5 applies: vgg16 batch 16 is 6 s.
local est = budget.estimator(s, "cpu")
local v16 = {model = "vgg16", precision = "fp32", batch = 16, input = 32, warmup = "auto"}
local step, source = est:step(v16)
check("calibrated step", near(step, 4) and source == "calibrated", tostring(step) .. " " .. tostring(source))
est:observe({model = "resnet50", precision = "fp32", batch = 16, input = 32}, {iter_mean_s = 6, seconds = 24,
  total_s = 40, cv = 0.08, warmup_samples = {8, 6}})
step = est:step(v16)
check("learned ratio", near(step, 6), step)
check("cv learned from runs", near(est:cv(v16), 0.08), est:cv(v16))

-- iters_for: at cv 5 %, +/-5 % takes 7 iterations and +/-2 % takes 27; bounded by hi.
check("iters_for 5 %", budget.iters_for(0.05, 0.05, 2, 100) == 7, budget.iters_for(0.05, 0.05, 2, 100))
check("iters_for 2 %", budget.iters_for(0.05, 0.02, 2, 100) == 27, budget.iters_for(0.05, 0.02, 2, 100))
check("iters_for capped", budget.iters_for(0.5, 0.01, 4, 50) == 50)
check("iters_for floor", budget.iters_for(0.001, 0.05, 4, 50) == 4)

-- trim: minima of 10, 25 and 5 s in 30 s keep the first and third and leave out the second.
-- probe_seconds: 2 layouts x ROUNDS (3) x (WARMUP 1 + ITERS 1) = 12 iterations per family at its
-- step; a family without a step (nil) counts nothing: 12 x 0.5 + 12 x 1.25 = 21 s.
local steps = {resnet50 = 0.5, vgg16 = 1.25}
check("probe_seconds counts 12 iterations per family",
  near(rlx.calibrate.probe_seconds({{model = "resnet50"}, {model = "vgg16"}, {model = "mlp"}},
    function(f) return steps[f.model] end), 21))
check("probe_seconds of nothing", rlx.calibrate.probe_seconds({}, function() return 1 end) == 0)
-- A GPU family names its own iterations (2 warm-up + 2 timed): 2 layouts x 3 rounds x 4 x 0.05 s.
check("probe_seconds of a GPU family: 24 iterations", near(rlx.calibrate.probe_seconds(
  {{model = "resnet50", warmup = 2, iters = 2}}, function() return 0.05 end), 1.2))

-- The probe's shape (issue 55 item 8): the batch the runs train at, the sweep's smallest (16 on a
-- CPU, 32 on a GPU without one); a CPU one warm-up and one timed iteration, a GPU two and two.
local function shape(...) return table.concat({calibrate.probe_shape(...)}, " ") end
check("probe_shape cpu 16", shape("cpu", 16) == "16 1 1", shape("cpu", 16))
check("probe_shape cpu 1", shape("cpu", 1) == "1 1 1", shape("cpu", 1))
check("probe_shape cpu 64", shape("cpu", 64) == "64 1 1", shape("cpu", 64))
check("probe_shape cpu, no sweep", shape("cpu") == "16 1 1", shape("cpu"))
check("probe_shape cuda 64", shape("cuda", 64) == "64 2 2", shape("cuda", 64))
check("probe_shape cuda, no sweep", shape("cuda") == "32 2 2", shape("cuda"))
-- The probe's own warm-up and timed iterations are options, checked like the others.
local _, bad_iters = pcall(calibrate.probe, {model = "vgg16", iters = 0, trainer = trainer})
check("probe: iters = 0 refused", tostring(bad_iters):find("rlx.calibrate.probe: option 'iters' must be an integer " ..
  ">= 1, got 0", 1, true) ~= nil, bad_iters)
local _, bad_warmup = pcall(calibrate.probe, {model = "vgg16", warmup = -1, trainer = trainer})
check("probe: warmup = -1 refused", tostring(bad_warmup):find("rlx.calibrate.probe: option 'warmup' must be an " ..
  "integer >= 0, got -1", 1, true) ~= nil, bad_warmup)
-- ensure() on a GPU probes at the sweep's smallest batch with the GPU's iterations; the dry run's
-- missing families carry them, so the plan counts 16 iterations each.
calls = {}
local gs = rlx.study{name = "gpu-shape", db = dir .. "/gpu_shape.db"}
calibrate.ensure(gs, "cuda:0", {{model = "resnet50", precision = "amp", input = 32, batch = 64}},
  {trainer = trainer, quiet = true})
check("ensure on cuda: batch 64, 2 warm-up, 2 timed", #calls == 6 and calls[1].batch == 64 and
  calls[1].warmup == 2 and calls[1].iters == 2 and calls[1].device == "cuda:0",
  calls[1] and (calls[1].batch .. " " .. calls[1].warmup .. " " .. calls[1].iters))
rlx.flags.dry_run = true
local _, _, gmissing = calibrate.ensure(gs, "cuda:0", {{model = "vgg16", precision = "fp32", input = 32, batch = 128}},
  {trainer = trainer, quiet = true})
rlx.flags.dry_run = false
check("dry ensure on cuda: the missing family's shape", #gmissing == 1 and gmissing[1].batch == 128 and
  gmissing[1].warmup == 2 and gmissing[1].iters == 2, gmissing[1] and gmissing[1].batch)
gs:close()

local fake = {step = function(_, k) return k.s end, outside = function() return 0 end,
  min_iters = function() return 1 end}
local t = budget.trim(fake, {{s = 10}, {s = 25}, {s = 5}}, 30, {min_iters = 1, max_iters = 1})
check("trim keeps in order what fits", table.concat(t.keep, ",") == "1,3" and table.concat(t.left_out, ",") == "2" and
  near(t.need_s, 15) and near(t.left_out_s, 25), table.concat(t.keep, ","))
-- With repeat numbers, breadth first: the 5 s run is a second repeat, and a first repeat (25 s) was
-- left out before it, so it is left out too: 10 + 5 would fit, but no configuration gets a second
-- run while another lacks its first. A 4 s first repeat after it still fits.
t = budget.trim(fake, {{s = 10}, {s = 25}, {s = 5}, {s = 4}}, 30, {min_iters = 1, max_iters = 1}, {1, 1, 2, 1})
check("trim by rounds is breadth first", table.concat(t.keep, ",") == "1,4" and table.concat(t.left_out, ",") == "2,3" and
  near(t.need_s, 14) and near(t.left_out_s, 30), table.concat(t.keep, ",") .. " / " .. table.concat(t.left_out, ","))

-- A sweep whose budget holds only some runs. Calibrations: resnet50 0.25 s per image, vgg16 2.5
-- (steps of 1 s and 10 s at batch 4); no run seen, so cv 5 % (the prior): accept_ci 5 % takes 7
-- timed iterations; set-up 0 s (the probe's) + 1 s (RUN_OVERHEAD_S), warm-up 3 iterations.
-- Minima: resnet50 1 + (3 + 7) x 1 = 11 s, vgg16 1 + (3 + 7) x 10 = 101 s. A budget of 20 s less
-- the 10 % rerun reserve (18 s) keeps resnet50 and leaves vgg16 out whole; after resnet50's run
-- (cv 2 %: 4 iterations; warm-up 2; set-up 0) vgg16 would need (2 + 4) x 10 = 60 s: still out.
local w = rlx.study{name = "w", db = dir .. "/w.db", label = "wenv"}
for _, m in ipairs({{"resnet50", 0.25}, {"vgg16", 2.5}}) do
  w.db:put_calibration(w.env_id, {device = "cpu", model = m[1], precision = "fp32", input = 32,
    memory_format = "contiguous", per_image_s = m[2], probe = {setup_s = 0}})
end
calls = {}
local stats = w:sweep{models = {"resnet50", "vgg16"}, batch = 4, input = 32, repeats = 1, warmup = "auto",
  target_ci = 0.02, accept_ci = 0.05, min_iters = 4, max_iters = 20, budget_s = 20, trainer = trainer, quiet = true,
  noise_floor = false}
check("left out whole", stats.ran == 1 and #stats.left_out == 1 and stats.left_out[1].label ==
  "wenv_vgg16_fp32_bs4_run1", tostring(stats.ran) .. " ran, " .. #stats.left_out .. " left out")
check("the run kept its precision", #calls == 1 and calls[1].max_iters >= 7, calls[1] and calls[1].max_iters)
check("what it would need", near(stats.left_out[1].need_s, 60), stats.left_out[1].need_s)

-- The plan's row and the command that adds what was left out.
local id = w.db:put_plan{study = "w", environment_id = w.env_id, budget_s = 7, estimate_s = 6.5, planned = 1,
  left_out = 1, detail = {left_out = {"wenv_resnet50_fp32_bs4_run2"}}}
w.db:finish_plan(id, 6.9, {left_out = {"wenv_resnet50_fp32_bs4_run2"}, add = "rlx run x --set budget=1m"})
local rows = w.db:plans("w")
check("plan row", #rows == 1 and rows[1].wall_s == 6.9 and rows[1].detail.add == "rlx run x --set budget=1m")
rlx.params_text = {db = "results/a b.db", scale = "default", budget = "30m"}
arg = {[0] = "experiments/all.lua"}
check("rerun command", rlx.experiment.rerun_command(601) == "rlx run experiments/all.lua --set 'db=results/a b.db' " ..
  "--set scale=default --set budget=11m", rlx.experiment.rerun_command(601))
local k = rlx.study{name = "k", db = dir .. "/k.db", label = "kenv"}
k.db:put_calibration(k.env_id, {device = "cpu", model = "resnet50", precision = "fp32", input = 32,
  memory_format = "channels_last", per_image_s = 0.25, margin = 1.01, probe = {setup_s = 0}})
-- A run stored while a calibrated channels_last was written into the configuration (its key is
-- that of a sweep that gave memory_format = "channels_last") still counts as done.
local function r50(extra)
  local o = {models = {"resnet50"}, batch = 16, input = 32, iters = 1, warmup = 0}
  for key, v in pairs(extra) do o[key] = v end
  return o
end
k:sweep(r50{memory_format = "channels_last", quiet = true, noise_floor = false, trainer = function(o)
  return {ok = true, images_per_s = 16, seconds = 1, samples = {1}, memory_format = o.memory_format,
    iter_s = {mean = 1, sd = 0, median = 1, min = 1, max = 1, p5 = 1, p95 = 1}}
end})
local resumed = k:plan(r50{calibration = calibrate.stored(k, "cpu")})[1]
check("sweep: a run keyed with the calibrated channels_last resumes", resumed.done and
  resumed.key == k:plan(r50{memory_format = "channels_last"})[1].key, tostring(resumed.done))
print(failures == 0 and "calibrate ok" or (failures .. " failures"))
