-- rlx.calibrate: what a study measures on this machine before it trains (issues 30 and 33).
--
-- One probe per model and precision on a device, a few seconds each: the model trains at a small
-- batch in each memory layout (channels_last and contiguous taking turns, twice each), on a CPU one
-- warm-up and one timed iteration a time (a GPU: M.probe_shape). The faster layout (the best of its timed iterations) is the
-- layout every run of that model uses here unless the user chose one: which one wins differs by
-- model and by CPU (VGG-16 runs 1.46x faster contiguous on a 2-core AMD EPYC, where channels_last
-- suits MobileNetV2; docs/benchmarks.md "Training settings"). The margin is the other layout's time
-- over the winner's. A margin counts only beyond the probe's own noise: the gap between a layout's
-- two fastest steps (27 % for ResNet-50 on a noisy EPYC, where the layouts are within 0-4 %). A
-- margin inside it earns more rounds, up to MAX_ROUNDS, and after them the default layout. The
-- winner's seconds per image and the model's set-up time seed the study's plan (rlx.plan), so
-- the plan comes from this machine rather than from constants measured on another. Probes are
-- stored with the environment (the calibrations table): a machine is probed once per model,
-- precision, input size and, on a CPU, thread count (a cgroup quota, a cpuset or --threads gives
-- a run fewer threads, and the faster layout and its speed can change with them); another CPU,
-- LibTorch or BLAS kernel is another environment and is probed again. A probe during which other
-- processes shared the cores (the run's contention check, docs/training.md) is made again; when
-- the second shares them too, its choice serves this study only and is not stored, so the next
-- study probes again.
local errors = require("rlx.errors")
local options = require("rlx.options")
local M = {}

-- The layouts a probe times, in turns, the first being rlx.train's default (rlx.plan.layout.LAYOUTS).
M.LAYOUTS = require("rlx.plan.layout").LAYOUTS
-- The probe's batch (or the sweep's smallest, when smaller): large enough that a step's time is
-- the model's, small enough that the probe of all three seed models takes about half a minute on
-- a 2-core CPU (29-32 s on the EPYC; a close call's extra rounds, or a probe repeated because
-- other processes shared the cores, can double a model's share). Its seconds per image differ
-- from those of the sweep's batches by a factor the plan learns from the first real runs
-- (rlx.plan.estimate, "calibrated" estimates).
M.PROBE_BATCH = 2
-- Each layout trains in ROUNDS short runs of WARMUP + ITERS iterations, the layouts taking turns
-- (A B A B), so a change of the machine's speed during the probe (a neighbour on the host, a clock
-- step) reaches both alike; a layout's time is its best timed iteration over the rounds.
M.ROUNDS, M.WARMUP, M.ITERS = 2, 1, 1
-- On a GPU a step at batch 2 is a launch-bound few milliseconds that says little of the layouts at
-- the sweep's batches (an H100 probed at batch 2 took 5-17 s per model, the model's set-up, with
-- best steps 14-27 % apart): a GPU probe trains at the sweep's smallest batch (GPU_PROBE_BATCH when
-- none is given), two warm-up iterations (cuDNN and cuBLAS initialise lazily in the first) and two
-- timed ones, still a fraction of a second of training beside the model's set-up.
M.GPU_PROBE_BATCH, M.GPU_WARMUP, M.GPU_ITERS = 32, 2, 2

--- The probe's batch, warm-up and timed iterations on device kind `kind` ("cpu" or "cuda") for a
--- sweep whose smallest batch is `smallest` (nil: none given): a CPU probes at PROBE_BATCH or
--- the smallest when smaller, a GPU at the smallest or GPU_PROBE_BATCH.
function M.probe_shape(kind, smallest)
  if kind == "cuda" then return smallest or M.GPU_PROBE_BATCH, M.GPU_WARMUP, M.GPU_ITERS end
  return math.min(M.PROBE_BATCH, smallest or M.PROBE_BATCH), M.WARMUP, M.ITERS
end
-- Rounds, at most, when the margin is beyond NEAR but within the noise: a close call costs two
-- more rounds of that model (7 s for ResNet-50 on the EPYC) rather than a layout chosen by chance.
M.MAX_ROUNDS = 4
-- Layouts whose best iterations differ by less than this are a tie, settled for the default: on
-- an idle 2-core EPYC ResNet-50 is within 0-4 % either way at batch 2 to 16, while the layouts
-- that matter differ by 13-50 % (docs/benchmarks.md, "Training settings").
M.NEAR = 0.05

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

local function best(xs)
  local b
  for _, x in ipairs(xs or {}) do if not b or x < b then b = x end end
  return b
end

-- The noise of best-of timing: a layout's second-fastest step over its fastest (1 with fewer than
-- two steps), the larger of the layouts'. A margin below it says which step was lucky, not which
-- layout is faster.
function M.noise(samples)
  local n = 1
  for _, xs in pairs(samples or {}) do
    local sorted = {}
    for i, x in ipairs(xs) do sorted[i] = x end
    table.sort(sorted)
    if #sorted >= 2 and sorted[1] > 0 then n = math.max(n, sorted[2] / sorted[1]) end
  end
  return n
end

-- Whether a margin says anything: beyond NEAR and beyond the probe's noise.
local function clear(margin, noise) return margin > 1 + M.NEAR and margin > noise end

-- One layout: a short run, its best timed iteration and the set-up time around it.
local function try(o, layout)
  local t0 = now_s()
  local r = (o.trainer or rlx.train)({model = o.model, precision = o.precision, device = o.device, input = o.input,
    classes = o.classes, batch = o.batch, warmup = o.warmup, iters = o.iters, memory_format = layout, lr = o.lr,
    threads = o.threads, progress = false})
  local wall = now_s() - t0
  if type(r) ~= "table" or not r.ok then return nil, type(r) == "table" and r.error or tostring(r) end
  local timed = sum(r.samples)
  local best_s = best(r.samples) or (type(r.iter_s) == "table" and r.iter_s.median)
  if type(best_s) ~= "number" or best_s <= 0 then return nil, "the run returned no timed iterations" end
  local samples = {}
  for i, x in ipairs(r.samples or {}) do samples[i] = x end
  return {samples = samples, warmup = r.warmup_samples, best_s = best_s, wall_s = wall,
    setup_s = math.max(0, wall - sum(r.warmup_samples) - timed), contended = r.contended == true,
    cpu_share = r.cpu_share, threads = r.threads}
end

--- Probes one model: opts {model, precision, device, input, classes, batch, warmup, iters (each
--- defaults to M.probe_shape's for the device), lr, threads}. Returns {model, precision, device (its kind), input,
--- memory_format (the faster layout), per_image_s (its best step / batch), margin (the other
--- layout's best step over the winner's; nil when only one ran), setup_s (model build and the
--- like, seconds), probe = {batch, seconds (the probe's wall time), samples = {layout = {...}},
--- errors = {layout = text}, rounds (2 to MAX_ROUNDS), noise (M.noise of the samples), threads
--- (the intra-op threads it trained with)}}. Raises
--- when no layout could train.
function M.probe(opts)
  local o = options.check("rlx.calibrate.probe", opts, PROBE_SPEC)
  local batch, warmup, iters = M.probe_shape(M.kind(o.device))
  o.batch, o.warmup, o.iters = o.batch or batch, o.warmup or warmup, o.iters or iters
  local t0 = now_s()
  local tried, failed = {}, {}
  local function round()
    for _, layout in ipairs(M.LAYOUTS) do
      if not failed[layout] then
        local got, why = try(o, layout)
        if not got then
          failed[layout], tried[layout] = why, nil
        elseif not tried[layout] then
          tried[layout] = got
        else  -- another round: its samples join the first's, the best is over all of them
          local t = tried[layout]
          for _, x in ipairs(got.samples or {}) do t.samples[#t.samples + 1] = x end
          t.best_s, t.contended = math.min(t.best_s, got.best_s), t.contended or got.contended
          t.setup_s = math.min(t.setup_s, got.setup_s)
        end
      end
    end
  end
  -- The faster layout by best step, the other's best over its best, and the probe's noise.
  local function standing()
    local win
    for _, layout in ipairs(M.LAYOUTS) do
      if tried[layout] and (not win or tried[layout].best_s < tried[win].best_s) then win = layout end
    end
    local other = win == M.LAYOUTS[1] and M.LAYOUTS[2] or M.LAYOUTS[1]
    local samples = {}
    for layout, got in pairs(tried) do samples[layout] = got.samples end
    return win, tried[other] and win and tried[other].best_s / tried[win].best_s or nil, M.noise(samples)
  end
  -- A close call: a margin beyond NEAR but within the noise, which more rounds may settle.
  local rounds, win, margin, noise = 0
  repeat
    round()
    rounds = rounds + 1
    win, margin, noise = standing()
    local close = margin ~= nil and margin > 1 + M.NEAR and not clear(margin, noise)
  until rounds >= M.MAX_ROUNDS or (rounds >= M.ROUNDS and not close)
  if not win then
    errors.raise("rlx.calibrate.probe", string.format("%s %s on %s trained in no memory layout: %s", o.model,
      o.precision, o.device, tostring(failed.channels_last or failed.contiguous)))
  end
  -- Within NEAR, or within the noise, the best steps say nothing two lucky samples do not: the
  -- model's default layout (channels_last, the first tried) is kept.
  if win ~= M.LAYOUTS[1] and tried[M.LAYOUTS[1]] and not clear(margin, noise) then
    margin = tried[win].best_s / tried[M.LAYOUTS[1]].best_s
    win = M.LAYOUTS[1]
  end
  local samples, contended = {}, false
  for layout, got in pairs(tried) do samples[layout], contended = got.samples, contended or got.contended end
  return {model = o.model, precision = o.precision, device = M.kind(o.device),
    input = o.input, memory_format = win, per_image_s = tried[win].best_s / o.batch,
    margin = margin, setup_s = tried[win].setup_s, contended = contended or nil,
    probe = {batch = o.batch, seconds = now_s() - t0, samples = samples, errors = next(failed) and failed or nil,
      setup_s = tried[win].setup_s, contended = contended or nil, rounds = rounds, noise = noise,
      threads = tried[win].threads}}
end

--- What a calibration's margin says, the one wording the plan, `rlx env` and the report use:
--- "1.46x faster than channels_last"; within NEAR, "contiguous within 3 %, a tie: the default"
--- (the other layout may have timed up to NEAR faster); beyond NEAR but within the probe's noise
--- (c.probe.noise, M.noise), "contiguous timed 1.23x faster, within the probe's noise (a layout's
--- best steps 27 % apart): a tie, the default"; "contiguous failed" without a margin.
function M.margin_text(c)
  local other = c.memory_format == "channels_last" and "contiguous" or "channels_last"
  if type(c.margin) ~= "number" then return other .. " failed" end
  local noise = type(c.probe) == "table" and tonumber(c.probe.noise) or 1
  if clear(c.margin, noise) then return string.format("%.2fx faster than %s", c.margin, other) end
  if math.abs(c.margin - 1) <= M.NEAR + 1e-9 then
    return string.format("%s within %.0f %%, a tie: the default", other, math.abs(c.margin - 1) * 100)
  end
  return string.format("%s timed %.2fx %s, within the probe's noise (a layout's best steps %.0f %% apart): " ..
    "a tie, the default", other, c.margin < 1 and 1 / c.margin or c.margin, c.margin < 1 and "faster" or "slower",
    (noise - 1) * 100)
end

--- "vgg16 fp32: contiguous, 1.46x faster than channels_last (0.75 s/image at batch 4; probe 22 s)".
function M.text(c)
  local busy = c.contended and "; other processes shared the cores during two probes: not kept, " ..
    "probed again next time" or ""
  local probe = type(c.probe) == "table" and c.probe or {}
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
function M.kind(device) return require("rlx.studydb.data").kind_of(device) == "cuda" and "cuda" or "cpu" end

--- Whether a stored calibration `c` holds for a run on device kind `kind` with `threads` intra-op
--- threads (nil: rlx.train's default, one per CPU this process may run on): a CPU layout measured
--- with another thread count (a run pinned to fewer CPUs, --threads) is measured again, since the
--- faster layout can change with the threads; one from before threads were recorded holds.
function M.current(c, kind, threads)
  local probed = type(c) == "table" and type(c.probe) == "table" and c.probe.threads
  if kind ~= "cpu" or type(probed) ~= "number" then return true end
  return probed == (threads or rlx.env.default_threads().threads)
end

--- Probes every (model, precision) of `families` ({model, precision, input, batch} tables: batch
--- the smallest the sweep runs) that `study`'s environment has no calibration for on `device`,
--- stores each, and returns all of them keyed by M.key, with the seconds spent probing. A dry run
--- probes nothing: it returns what is stored, 0 seconds, and the families a real run would probe
--- (each with the probe's batch). opts: classes, lr, threads (rlx train's --threads), quiet, trainer.
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
      -- shares them as well, its choice (the best iterations are the least disturbed) serves
      -- this study only and is not kept, so the next study probes again.
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
--- it names none); building the model is left out, and so are the rounds a close call adds (up to
--- MAX_ROUNDS), which no estimate can foresee.
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
