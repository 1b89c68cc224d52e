-- rlx.calibrate: what a study measures on this machine before it trains (issues 30, 33 and 55).
--
-- One probe per model and precision on a device: the model trains in each memory layout
-- (channels_last and contiguous taking turns, A B A B) at the batch the runs train at (a sweep's
-- smallest, `rlx train`'s --batch-size: M.probe_shape), one warm-up and one timed iteration a
-- run on a CPU (two and two on a GPU). The margin is the other layout's mean step over the
-- faster one's, with its 95 % CI over the alternating runs, each run one value (its mean timed
-- step; rlx.stats.ratio_ci95). The faster layout is chosen when that CI clears 1 by CLEAR and the
-- margin is beyond NEAR; the layouts are a tie when the CI's top is within NEAR (the default
-- layout is then kept, and the text says what it may cost by the CI); anything between earns more
-- rounds at the same batch, up to MAX_ROUNDS, and a probe still undecided after them is a tie
-- within its CI, which the text states (issue 55 item 8: at batch 2 the probe called VGG-16 a tie
-- on a 2-core Zen 5, where at batch 16 contiguous trained 1.13x faster). Which layout wins differs by model and by CPU (VGG-16
-- runs 1.46x faster contiguous on a 2-core AMD EPYC, where channels_last suits MobileNetV2;
-- docs/benchmarks.md "Training settings"). The winner's seconds per image and the model's set-up
-- time seed the study's plan (rlx.plan), so the plan comes from this machine rather than from
-- constants measured on another. Probes are stored with the environment (the calibrations table;
-- the CI and the verdict in its probe JSON): a machine is probed once per model, precision, input
-- size and, on a CPU, thread count (a cgroup quota, a cpuset or --threads gives a run fewer
-- threads, and the faster layout and its speed can change with them); another CPU, LibTorch or
-- BLAS kernel is another environment and is probed again, and so is a probe stored before this
-- rule (best step at batch 2, no CI: M.current). A run during which other processes shared the
-- cores (the run's contention check, docs/training.md) is set aside and the probe takes another
-- round; a probe whose verdict still rests on such runs is made again, and when the second does
-- too, its choice serves this study only and is not stored, so the next study probes again.
local errors = require("rlx.errors")
local options = require("rlx.options")
local stats = require("rlx.stats")
local studydb = require("rlx.studydb.data")
local M = {}

-- The layouts a probe times, in turns, the first being rlx.train's default (rlx.plan.layout.LAYOUTS).
M.LAYOUTS = require("rlx.plan.layout").LAYOUTS
-- The probe trains at the batch the runs train at: a study's smallest (its runs at larger batches
-- cost more per step, so the smallest keeps the probe to about two runs' worth of that model's
-- cheapest configuration), `rlx train`'s own. PROBE_BATCH on a CPU when the caller names none
-- (the smallest of the CPU sweep, experiments/cpu.lua), GPU_PROBE_BATCH on a GPU.
M.PROBE_BATCH, M.GPU_PROBE_BATCH = 16, 32
-- Each layout trains in ROUNDS short runs of WARMUP + ITERS iterations, the layouts taking turns
-- (A B A B A B), so a change of the machine's speed during the probe (a neighbour on the host, a
-- clock step) reaches both alike. A run is the unit of the CI: steps of one run share its process,
-- its memory placement and its moment, and on a 2-core Zen 5 two VGG-16 runs of one layout were
-- 30 % apart where each run's own two steps were within 4 %, so steps pooled as if independent
-- made the CI several times too narrow (identical work, an MLP in both layouts, then passed for a
-- 1.07x win). Three runs a layout are the fewest whose CI is of use (t = 2.8 at about 4 degrees of
-- freedom; two give 4.3 to 12.7); one timed step a run buys them at the cost two steps bought two.
-- A GPU's first step initialises cuDNN and cuBLAS lazily: two warm-up iterations there.
M.ROUNDS, M.WARMUP, M.ITERS = 3, 1, 1
M.GPU_WARMUP, M.GPU_ITERS = 2, 2

--- The probe's batch, warm-up and timed iterations on device kind `kind` ("cpu" or "cuda") for runs
--- whose smallest batch is `smallest` (nil: none given): that batch, else PROBE_BATCH on a CPU and
--- GPU_PROBE_BATCH on a GPU; WARMUP and ITERS on a CPU, GPU_WARMUP and GPU_ITERS on a GPU.
function M.probe_shape(kind, smallest)
  if kind == "cuda" then return smallest or M.GPU_PROBE_BATCH, M.GPU_WARMUP, M.GPU_ITERS end
  return smallest or M.PROBE_BATCH, M.WARMUP, M.ITERS
end
-- Rounds, at most: a probe the first ROUNDS leave undecided takes more, one at a time at the same
-- batch, and stops as soon as it is decided; at most twice the planned probe of that model.
M.MAX_ROUNDS = 6
-- A margin that counts is beyond this as well as beyond the noise, and layouts whose CI lies within
-- it are a tie: on an idle 2-core EPYC ResNet-50 is within 0-4 % either way at batch 2 to 16,
-- while the layouts that matter differ by 13-50 % (docs/benchmarks.md, "Training settings").
M.NEAR = 0.05
-- How far the CI of a win must clear 1: half of NEAR. The CI of means is no better than the
-- normality it assumes, and a 2-core VM's runs have tails (a run 50 % slower now and then, its
-- cores not visibly shared): an MLP, the same work in both layouts, passed for a 1.06x win, CI
-- 1.00-1.11, once in 17 probes that asked only for a bottom above 1. Resampled from such runs, a
-- bottom that clears 1 by 2.5 % let identical work win in 1.1-1.5 % of probes instead of 4.1-4.7 %,
-- while a 1.13x margin among a quiet VGG-16's runs was still found in 99.8 % of them, after 3.5
-- rounds on average instead of 3.2.
M.CLEAR = M.NEAR / 2

local PROBE_SPEC = {
  model = {type = "string", required = true},
  precision = {type = "string", default = "fp32"},
  device = {type = "string", default = "cpu"},
  input = {type = "integer", min = 1, default = 224},
  classes = {type = "integer", min = 1, default = 1000},
  batch = {type = "integer", min = 1},
  warmup = {type = "integer", min = 0},
  iters = {type = "integer", min = 1},
  lr = {type = "number"},
  threads = {type = "integer", min = 1},
  trainer = {type = "function"},
}

local now_s = require("rlx.study._common").now_s

local function sum(xs)
  local s = 0
  for _, x in ipairs(xs or {}) do s = s + x end
  return s
end

local function other_of(layout) return layout == M.LAYOUTS[1] and M.LAYOUTS[2] or M.LAYOUTS[1] end

--- The verdict on a probe's runs, `samples` = {channels_last = {seconds...}, contiguous = {...}},
--- one value a run (its mean timed step): {verdict, memory_format, margin, ci}. margin is the other
--- layout's mean over the chosen one's and ci = {low, high, df} its 95 % CI (rlx.stats.ratio_ci95).
--- verdict:
---   "clear"  the faster layout, its margin's CI above 1 + CLEAR and the margin beyond 1 + NEAR;
---   "tie"    the CI of the slower over the faster within NEAR at its top: the default (channels_last);
---   "open"   neither (the CI straddles 1 and NEAR): the default, until more rounds decide;
---   "alone"  one layout has steps (the other failed): it, without a margin.
--- nil when no layout has any.
function M.judge(samples)
  samples = samples or {}
  local have = {}
  for _, layout in ipairs(M.LAYOUTS) do have[layout] = type(samples[layout]) == "table" and #samples[layout] > 0 end
  local a, b = M.LAYOUTS[1], M.LAYOUTS[2]
  if not have[a] and not have[b] then return nil end
  if not (have[a] and have[b]) then return {verdict = "alone", memory_format = have[a] and a or b} end
  local fast = stats.mean(samples[b]) < stats.mean(samples[a]) and b or a
  local r = stats.ratio_ci95(samples[other_of(fast)], samples[fast])
  local function ci(x) return x.low and {low = x.low, high = x.high, df = x.df} or nil end
  if r.low and r.low > 1 + M.CLEAR and r.ratio > 1 + M.NEAR then
    return {verdict = "clear", memory_format = fast, margin = r.ratio, ci = ci(r)}
  end
  local d = fast == a and r or stats.ratio_ci95(samples[b], samples[a])
  return {verdict = (r.high and r.high <= 1 + M.NEAR) and "tie" or "open", memory_format = a, margin = d.ratio,
    ci = ci(d)}
end

-- One layout: a short run, its timed iterations and the set-up time around them.
local function try(o, layout)
  local t0 = now_s()
  local r = (o.trainer or rlx.train)({model = o.model, precision = o.precision, device = o.device, input = o.input,
    classes = o.classes, batch = o.batch, warmup = o.warmup, iters = o.iters, memory_format = layout, lr = o.lr,
    threads = o.threads, progress = false})
  local wall = now_s() - t0
  if type(r) ~= "table" or not r.ok then return nil, type(r) == "table" and r.error or tostring(r) end
  local samples = {}
  for _, x in ipairs(type(r.samples) == "table" and r.samples or {}) do
    if type(x) == "number" and x > 0 then samples[#samples + 1] = x end
  end
  if #samples == 0 then return nil, "the run returned no timed iterations" end
  return {samples = samples, contended = r.contended == true, threads = r.threads,
    setup_s = math.max(0, wall - sum(r.warmup_samples) - sum(r.samples))}
end

--- Probes one model: opts {model, precision, device, input, classes, batch, warmup, iters (each
--- defaults to M.probe_shape's for the device), lr, threads}. Returns {model, precision, device (its
--- kind), input, memory_format (the chosen layout), per_image_s (its mean step / batch), margin (the
--- other layout's mean step over the chosen one's; nil when only one trained), setup_s (model build
--- and the like, seconds), contended (the verdict rests on runs that shared their cores), probe =
--- {batch, seconds (the probe's wall time), samples = {layout = {...}} (every timed step), run_s =
--- {layout = {...}} (each run's mean step, in order), errors = {layout = text}, rounds (ROUNDS to
--- MAX_ROUNDS), verdict and ci (M.judge's, on the runs), set_aside (runs the verdict left out: other
--- processes shared their cores), threads (the intra-op threads it trained with)}}. A run that
--- shared its cores timed the other processes too: the verdict is made from the runs that did not
--- while each layout has two of them, and a probe whose verdict is open, or rests on shared runs,
--- takes another round. Raises when no layout could train.
function M.probe(opts)
  local o = options.check("rlx.calibrate.probe", opts, PROBE_SPEC)
  local batch, warmup, iters = M.probe_shape(M.kind(o.device))
  o.batch, o.warmup, o.iters = o.batch or batch, o.warmup or warmup, o.iters or iters
  local t0 = now_s()
  local runs, failed = {}, {}  -- runs[layout]: each run's {samples, contended, setup_s, threads}
  local function round()
    for _, layout in ipairs(M.LAYOUTS) do
      if not failed[layout] then
        local got, why = try(o, layout)
        if not got then
          failed[layout], runs[layout] = why, nil
        else
          runs[layout] = runs[layout] or {}
          table.insert(runs[layout], got)
        end
      end
    end
  end
  -- Every layout's runs as one value each (the mean timed step), of those that did not share
  -- their cores (clean) or of all; `steps` instead: every timed step.
  local function values(clean, steps)
    local out = {}
    for layout, list in pairs(runs) do
      out[layout] = {}
      for _, run in ipairs(list) do
        if not (clean and run.contended) then
          if steps then
            for _, x in ipairs(run.samples) do table.insert(out[layout], x) end
          else
            table.insert(out[layout], stats.mean(run.samples))
          end
        end
      end
    end
    return out
  end
  -- The verdict, and whether it rests on runs that shared their cores.
  local function judged()
    local clean, enough, shared = values(true), true, false
    for layout, list in pairs(runs) do
      enough = enough and #clean[layout] >= 2
      for _, run in ipairs(list) do shared = shared or run.contended end
    end
    if enough or not shared then return M.judge(clean), false end
    return M.judge(values(false)), true
  end
  -- Rounds until decided: ROUNDS at least, then one more while the verdict is open or rests on
  -- shared runs, up to MAX_ROUNDS.
  local rounds, j, shared = 0
  repeat
    round()
    rounds = rounds + 1
    j, shared = judged()
  until not j or rounds >= M.MAX_ROUNDS or (rounds >= M.ROUNDS and j.verdict ~= "open" and not shared)
  if not j then
    errors.raise("rlx.calibrate.probe", string.format("%s %s on %s trained in no memory layout: %s", o.model,
      o.precision, o.device, tostring(failed.channels_last or failed.contiguous)))
  end
  local set_aside, setup_s, threads = 0, math.huge, nil
  for _, run in ipairs(runs[j.memory_format]) do setup_s, threads = math.min(setup_s, run.setup_s), threads or run.threads end
  for _, list in pairs(runs) do
    for _, run in ipairs(list) do if run.contended and not shared then set_aside = set_aside + 1 end end
  end
  local judged_runs = values(not shared)
  return {model = o.model, precision = o.precision, device = M.kind(o.device), input = o.input,
    memory_format = j.memory_format, per_image_s = stats.mean(judged_runs[j.memory_format]) / o.batch,
    margin = j.margin, setup_s = setup_s, contended = shared or nil,
    probe = {batch = o.batch, seconds = now_s() - t0, samples = values(false, true), run_s = values(false),
      errors = next(failed) and failed or nil, setup_s = setup_s, contended = shared or nil, rounds = rounds,
      verdict = j.verdict, ci = j.ci, set_aside = set_aside > 0 and set_aside or nil, threads = threads}}
end

-- The margin's words for a probe stored before issue 55 (best steps at batch 2, a noise of
-- best-of timing, no CI), as they were then: such a row is shown, and measured again before use.
local function legacy_margin_text(c, other)
  local noise = type(c.probe) == "table" and tonumber(c.probe.noise) or 1
  if c.margin > 1 + M.NEAR and c.margin > noise then return string.format("%.2fx faster than %s", c.margin, other) end
  if math.abs(c.margin - 1) <= M.NEAR + 1e-9 then
    return string.format("%s within %.0f %%, a tie: the default", other, math.abs(c.margin - 1) * 100)
  end
  return string.format("%s timed %.2fx %s, within the probe's noise (a layout's best steps %.0f %% apart): " ..
    "a tie, the default", other, c.margin < 1 and 1 / c.margin or c.margin, c.margin < 1 and "faster" or "slower",
    (noise - 1) * 100)
end

--- How far a tie's layouts may be apart, in percent: the larger of the CI's top over 1 and 1 over
--- its bottom, rounded up (at least 1); nil without a CI.
function M.tie_within(ci)
  if type(ci) ~= "table" or type(ci.high) ~= "number" then return nil end
  local x = ci.high - 1
  if type(ci.low) == "number" and ci.low > 0 then x = math.max(x, 1 / ci.low - 1) end
  return math.max(1, math.ceil(x * 100 - 1e-9))
end

--- What keeping the default may cost, in percent, by a tie's CI of the other layout's mean step over
--- the default's: how much faster the other may be (1 over the CI's bottom, less 1, rounded up);
--- 0 when the CI's bottom is 1 or more (the other is no faster); nil when it is 0 or less (the CI
--- says nothing) or there is none.
function M.default_cost(ci)
  if type(ci) ~= "table" or type(ci.low) ~= "number" or ci.low <= 0 then return nil end
  if ci.low >= 1 then return 0 end
  return math.ceil((1 / ci.low - 1) * 100 - 1e-9)
end

-- "which costs at most 3 %" of a tie's default, from M.default_cost.
local function cost_text(ci, open)
  local y = M.default_cost(ci)
  if y == nil then return "whose cost the noise hides" end
  if y == 0 then return "which the CI finds no slower" end
  return string.format("which %s %d %%", open and "may cost up to" or "costs at most", y)
end

--- What a calibration's margin says, the one wording the plan, `rlx env`, `rlx train --verbose` and
--- the report use, with the batch it was decided at and its 95 % CI (M.judge's verdict):
---   clear  "1.20x faster than contiguous at batch 16 (95 % CI 1.08-1.32)";
---   tie    "a tie with contiguous at batch 16 (within ±4 %: 95 % CI 0.97-1.02): the default, which
---          costs at most 4 %";
---   open   "a tie with contiguous at batch 16 after 6 rounds (within ±14 %: 95 % CI 0.88-1.03, the
---          machine's noise): the default, which may cost up to 14 %";
---   alone  "contiguous failed at batch 16".
--- The default's cost is M.default_cost's: "which the CI finds no slower" when the other layout
--- cannot be faster by the CI. A probe stored before issue 55 (no verdict) keeps its words of then:
--- "1.46x faster than channels_last", "contiguous within 3 %, a tie: the default", "... within the
--- probe's noise ...".
function M.margin_text(c)
  local other = other_of(c.memory_format)
  local probe = type(c.probe) == "table" and c.probe or {}
  local at = type(probe.batch) == "number" and probe.verdict and string.format(" at batch %d", probe.batch) or ""
  if type(c.margin) ~= "number" then return other .. " failed" .. at end
  local ci = type(probe.ci) == "table" and type(probe.ci.low) == "number" and type(probe.ci.high) == "number" and
    probe.ci or nil
  if not probe.verdict or not ci then return legacy_margin_text(c, other) end
  if probe.verdict == "clear" then
    return string.format("%.2fx faster than %s%s (95 %% CI %.2f-%.2f)", c.margin, other, at, ci.low, ci.high)
  end
  local x = M.tie_within(ci)
  if probe.verdict == "tie" then
    return string.format("a tie with %s%s (within ±%d %%: 95 %% CI %.2f-%.2f): the default, %s", other, at, x, ci.low,
      ci.high, cost_text(ci))
  end
  return string.format("a tie with %s%s after %d rounds (within ±%d %%: 95 %% CI %.2f-%.2f, the machine's noise): " ..
    "the default, %s", other, at, tonumber(probe.rounds) or M.MAX_ROUNDS, x, ci.low, ci.high, cost_text(ci, true))
end

--- "resnet50 fp32: channels_last, 1.20x faster than contiguous at batch 16 (95 % CI 1.08-1.32);
--- 0.106 s/image, probe 29 s in 3 rounds". A probe stored before issue 55: "vgg16 fp32: contiguous,
--- 1.46x faster than channels_last (0.75 s/image at batch 2; probe 22 s)".
function M.text(c)
  local busy = c.contended and "; other processes shared the cores during two probes: not kept, " ..
    "probed again next time" or ""
  local probe = type(c.probe) == "table" and c.probe or {}
  if probe.verdict then
    return string.format("%s %s: %s, %s; %.3g s/image%s%s", c.model, c.precision, c.memory_format, M.margin_text(c),
      c.per_image_s, type(probe.seconds) == "number" and string.format(", probe %.0f s in %s round%s", probe.seconds,
        tostring(probe.rounds or "?"), probe.rounds == 1 and "" or "s") or "", busy)
  end
  return string.format("%s %s: %s, %s (%.3g s/image at batch %s%s%s)", c.model, c.precision, c.memory_format,
    M.margin_text(c),
    c.per_image_s, tostring(probe.batch or "?"),
    type(probe.seconds) == "number" and string.format("; probe %.0f s", probe.seconds) or "", busy)
end

--- Where runs without a study database (rlx train without --db) keep this machine's calibrations:
--- one database per user, ${XDG_CACHE_HOME:-~/.cache}/rlx/calibrations.db.
function M.cache_db()
  local base = os.getenv("XDG_CACHE_HOME")
  if not base or base == "" then base = (os.getenv("HOME") or "/tmp") .. "/.cache" end
  return base .. "/rlx/calibrations.db"
end

--- Keeps a study's probe in the user's cache too (M.cache_db(), under this machine's default
--- environment), where rlx.train{} and `rlx train` look for this machine's calibrations
--- (rlx.plan.layout): a script trains in the layout the study measured. Best effort: a cache that
--- cannot be written changes nothing of the study.
function M._keep_in_cache(study, c)
  local path = M.cache_db()
  if study.path == path then return end
  local ok, err = pcall(function()
    local st = rlx.study{name = "calibrations", db = path}
    st.db:put_calibration(st.env_id, c)
    st:close()
  end)
  if not ok then errors.pass_exits(err) end
end

--- The key of a calibration: model, precision and input size.
function M.key(model, precision, input)
  return table.concat({tostring(model), tostring(precision or "fp32"), tostring(input or 224)}, "|")
end

--- The calibrations of `study`'s environment on device kind `kind`, keyed by M.key. On a CPU, one
--- per model, precision and input: the one probed with `threads` intra-op threads (nil: rlx.train's
--- default, one per CPU this process may run on), else one from before probes recorded their
--- threads (threads = 0), which serves any count; a probe with other threads is not returned.
function M.stored(study, kind, threads)
  local want = kind == "cpu" and (threads or rlx.env.default_threads().threads) or 0
  local out = {}
  for _, c in ipairs(study.db:calibrations(study.env_id, kind)) do
    if type(c.probe) == "table" then c.setup_s = c.probe.setup_s end
    local key, t = M.key(c.model, c.precision, c.input), tonumber(c.threads) or 0
    if t == want or (t == 0 and not out[key]) then out[key] = c end
  end
  return out
end

--- The device kind calibrations are kept by: "cuda" for "cuda" or "cuda:N", else "cpu" (rlx trains
--- on no other kind; rlx.studydb.data.kind_of owns the rule).
function M.kind(device) return studydb.kind_of(device) == "cuda" and "cuda" or "cpu" end

--- Whether a stored calibration `c` holds for a run on device kind `kind` with `threads` intra-op
--- threads (nil: rlx.train's default, one per CPU this process may run on). A probe stored before
--- issue 55 (no verdict: best steps at batch 2, no CI) does not: its choice did not hold (a tie at
--- batch 2 where contiguous trained 1.13x faster at batch 16), so it is measured again and
--- replaced. A CPU layout measured with another thread count (a run pinned to fewer CPUs,
--- --threads) is measured again, since the faster layout can change with the threads; one from
--- before threads were recorded holds.
function M.current(c, kind, threads)
  local probe = type(c) == "table" and type(c.probe) == "table" and c.probe or nil
  if not (probe and probe.verdict) then return false end
  if kind ~= "cpu" or type(probe.threads) ~= "number" then return true end
  return probe.threads == (threads or rlx.env.default_threads().threads)
end

--- Probes every (model, precision) of `families` ({model, precision, input, batch} tables: batch
--- the smallest the sweep runs, which the probe trains at) that `study`'s environment has no
--- current calibration for on `device` (M.current), stores each, and returns all of them keyed by
--- M.key, with the seconds spent probing. A dry run probes nothing: it returns what is stored, 0
--- seconds, and the families a real run would probe (each with the probe's batch). opts: classes,
--- lr, threads (rlx train's --threads), quiet, trainer.
function M.ensure(study, device, families, opts)
  opts = opts or {}
  local kind = M.kind(device)
  local have = M.stored(study, kind, opts.threads)
  local spent, missing = 0, {}
  local dry = rlx.flags and rlx.flags.dry_run
  for key, c in pairs(have) do
    if not M.current(c, kind, opts.threads) then have[key] = nil end
  end
  for _, f in ipairs(families) do
    local key = M.key(f.model, f.precision, f.input)
    local batch, warmup, iters = M.probe_shape(kind, f.batch)
    if not have[key] and dry then
      missing[#missing + 1] = {model = f.model, precision = f.precision, input = f.input, batch = batch,
        warmup = warmup, iters = iters}
    elseif not have[key] then
      local probe_opts = {model = f.model, precision = f.precision, device = device, input = f.input,
        classes = opts.classes, batch = batch, warmup = warmup, iters = iters, lr = opts.lr,
        threads = opts.threads, trainer = opts.trainer}
      local c = M.probe(probe_opts)
      spent = spent + c.probe.seconds
      -- A probe that shared its cores timed the other processes too: once more, and if that one
      -- shares them as well, its choice serves this study only and is not kept, so the next
      -- study probes again.
      if c.contended then
        c = M.probe(probe_opts)
        spent = spent + c.probe.seconds
      end
      if not c.contended then
        study.db:put_calibration(study.env_id, c)
        if not opts.trainer then M._keep_in_cache(study, c) end
      end
      have[key] = c
      if not opts.quiet then print("calibrate: " .. M.text(c)) end
    end
  end
  return have, spent, missing
end

--- Seconds the probe of `families` (as M.ensure's dry run returns them) would take, by
--- `step_s(family)`: seconds of one iteration at the family's batch (nil: counted as nothing).
--- Both layouts train ROUNDS runs of the family's warm-up + timed iterations (WARMUP + ITERS when
--- it names none); building the model is left out, and so are the rounds an undecided probe adds
--- (up to MAX_ROUNDS: at most as much again), which no estimate can foresee.
function M.probe_seconds(families, step_s)
  local s = 0
  for _, f in ipairs(families) do
    local step = step_s(f)
    local iterations = (f.warmup or M.WARMUP) + (f.iters or M.ITERS)
    if type(step) == "number" then s = s + #M.LAYOUTS * M.ROUNDS * iterations * step end
  end
  return s
end

return M
