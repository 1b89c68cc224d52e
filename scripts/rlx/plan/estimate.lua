-- rlx.plan.estimate: how long a run of a configuration takes here, before it runs (the estimate
-- of the study's plan; scripts/rlx/plan/ owns planning, docs/study.md "Time budget").
--
-- A run's time is estimated as setup + (warm-up + n) x step: n timed iterations of `step`
-- seconds, the warm-up iterations, and a setup in seconds (model build, noise-floor probe, storing).
-- `step` comes, best first, from
--   1. finished runs of the same configuration in this environment (the median of their mean
--      iteration times): source "measured";
--   2. the model's analytic FLOPs and bytes per iteration (rlx.model.summary) over the roofline of
--      the measured peaks, divided by the efficiency seen so far for this model and precision
--      here: "analytic";
--   3. this machine's calibration of the model (rlx.calibrate: seconds per image at a small batch,
--      times the batch, times the ratio of real to probed seconds per image seen so far here, 1
--      before any run): "calibrated";
--   4. the analytic time over a prior efficiency (M.PRIOR_EFFICIENCY, measured on one Xeon; used
--      only where nothing of this machine is known, e.g. a dry run before any calibration):
--      "analytic (prior)";
--   5. for a model rlx.model cannot describe, other batch sizes of it scaled by images: "measured
--      per image".
-- Warm-up iterations and setup seconds are learned from finished runs, else the calibration's
-- setup, else M.DEFAULT_WARMUP_ITERS and M.DEFAULT_SETUP_ITERS. The step-to-step spread (cv) is
-- the runs' here, else the calibration's (the spread of each layout's timed steps in its probes),
-- else M.PRIOR_CV. A run with hardware counters also spends its counted section (the counter
-- passes after the timed iterations): learned from runs here, else M.COUNTER_STEPS. Every median
-- and CV is rlx.stats's (engine/train/stats.cpp).
local errors = require("rlx.errors")
local stats = require("rlx.stats")
local fit = require("rlx.plan.fit")
local kind_of = require("rlx.studydb.data").kind_of
local M = {}

-- Efficiency (achieved / roofline-attainable time) of the seed's models before any run of them has
-- been seen, per precision: measured at 224x224, batch 16, on a 2-core Xeon (CPU model 207) against
-- its own full peaks (FP32 FMA 351 GFLOP/s; bf16 VDPBF16PS 175 GFLOP/s), docs/benchmarks.md
-- "Study protocols". A model's efficiency differs far more across models (VGG-16 0.77,
-- MobileNetV2 0.33 in fp32) than across these CPUs, so one figure for all would misplan the
-- default study by 2x: the plan refused it on a machine where it fits in 20 minutes.
M.PRIOR_EFFICIENCY = {
  fp32 = {resnet50 = 0.59, vgg16 = 0.77, mobilenet_v2 = 0.33},
  bf16 = {resnet50 = 0.80, vgg16 = 0.95, mobilenet_v2 = 0.23},
}
-- For other models, per precision (between the seed's models above).
M.DEFAULT_EFFICIENCY = {fp32 = 0.45, bf16 = 0.3, amp = 0.3}
-- Warm-up until steady typically stops after 2-3 iterations (the first is slow, then the time
-- stops falling).
M.DEFAULT_WARMUP_ITERS = 3
-- Model build, noise-floor probe and the first iteration's extra cost, in iterations, where
-- nothing was measured.
M.DEFAULT_SETUP_ITERS = 1
-- Seconds a study adds around each run beyond the model's own set-up (the noise-floor probe,
-- claiming and storing the slot), until runs here have been seen.
M.RUN_OVERHEAD_S = 1
-- The step-to-step spread assumed before any run or calibration here was seen (a coefficient of
-- variation). The default study on a 2-core EPYC assumed it and measured about 1.5 %, so it planned
-- its runs 1.6x too long (issue 45): the calibration's own spread is used before it.
M.PRIOR_CV = 0.05
-- The counted section of a run with hardware counters, in its timed steps, before any such run here
-- was seen: on an H200 with CUPTI (5 counted iterations, one per pass of the metric set) it took
-- 17.7-41.6 steps, median 23.8, over the 9 runs of tests/fixtures/studies/h200-default-study.db
-- (counter_iters x counted_iter_s / iter_mean_s). Leaving it out planned that study's runs at
-- half their time: 19 planned, 9 ran.
M.COUNTER_STEPS = 23.8

-- The median of xs (rlx.stats.median), nil for none.
local function median(xs)
  if not xs or #xs == 0 then return nil end
  return stats.median(xs)
end

local function num(v) return type(v) == "number" and v == v and v > 0 and v < math.huge and v or nil end

local function push(t, k, v)
  t[k] = t[k] or {}
  table.insert(t[k], v)
end

--- The compute roof (GFLOP/s) an estimate divides by: the roofline's own for the run's precision
--- (rlx.roofline.roof: one roof policy for the figures, the report and the plan; tf32 = true
--- judges fp32 against the TF32 tensor roof), else the fp32 roof (a quick probe measures no bf16
--- figure), nil when the peaks have neither.
function M.compute_roof(peaks, precision, tf32)
  if type(peaks) ~= "table" then return nil end
  for _, p in ipairs({rlx.roofline.precision_of(precision or "fp32"), "fp32"}) do
    local ok, roof = pcall(rlx.roofline.roof, peaks, p, {tf32 = tf32 == true})
    if ok and type(roof) == "table" and num(roof.gflops) then return roof.gflops end
  end
end

-- The configuration key of estimates: what changes a step's time; family: the same without the
-- batch size.
local function family(c)
  return table.concat({tostring(c.model), tostring(c.precision or "fp32"), tostring(c.input or 224),
    tostring(c.data or "synthetic")}, "|")
end
local function key(c) return family(c) .. "|" .. tostring(c.batch) end
local function cal_key(c) return table.concat({tostring(c.model), tostring(c.precision or "fp32"),
  tostring(c.input or 224)}, "|") end

local Est = {}
Est.__index = Est

--- An estimator for the runs of `study` on device kind `kind` ("cpu" or "cuda"), primed with the
--- study's finished runs in this environment. opts.peaks: the peaks to use (default the stored
--- ones, else opts.probe() when given); opts.calibrations: rlx.calibrate's, keyed by
--- rlx.calibrate.key (default: the ones stored for this environment).
function M.estimator(study, kind, opts)
  opts = opts or {}
  local self = setmetatable({study = study, kind = kind, measured = {}, per_image = {}, eff = {}, warm = {},
    setup = {}, overhead = {}, cvs = {}, ratio = {}, summaries = {}, cal = {}, cal_cvs = {}, counted = {}},
    Est)
  self.peaks = opts.peaks or study:peaks(kind)
  if not self.peaks and opts.probe then self.peaks, self.peaks_source = opts.probe(), "probe" end
  self:calibrate(opts.calibrations or (study.db and study.env_id and rlx.calibrate.stored(study, kind)) or {})
  for _, r in ipairs(study.db:runs{study = study.name, status = "ok"}) do
    if r.environment_id == study.env_id and kind_of(r.device) == kind then
      local res = type(r.result) == "table" and r.result or {}
      local cfg = type(r.config) == "table" and r.config or {}
      self:observe({model = r.model, precision = r.precision, batch = r.batch,
        input = r.input or res.input or cfg.input, data = cfg.data}, {
        iter_mean_s = r.iter_mean_s, seconds = r.seconds, total_s = r.total_s, cv = r.cv,
        warmup_samples = res.warmup_samples, train_flops = r.train_flops, bytes = r.complexity_bytes,
        counted_s = (tonumber(r.counter_iters) or 0) * (tonumber(r.counted_iter_s) or 0)})
    end
  end
  return self
end

--- Adds calibrations (rlx.calibrate.ensure's) to an estimator, with the spread of their probes'
--- timed steps (each layout's CV, rlx.stats.cv) for Est:cv.
function Est:calibrate(cals)
  for k, c in pairs(cals or {}) do
    self.cal[k] = c
    local samples = type(c.probe) == "table" and type(c.probe.samples) == "table" and c.probe.samples or {}
    local layouts = {}
    for layout in pairs(samples) do layouts[#layouts + 1] = layout end
    table.sort(layouts)
    for _, layout in ipairs(layouts) do
      local xs = {}
      for _, x in ipairs(samples[layout]) do if num(x) then xs[#xs + 1] = x end end
      local cv = #xs >= 2 and stats.cv(xs) or nil
      if cv then table.insert(self.cal_cvs, cv) end
    end
  end
end

-- The model's analytic FLOPs and bytes per iteration (nil for a model rlx.model cannot describe).
function Est:_summary(c)
  local k = key(c)
  if self.summaries[k] == nil then
    local ok, s = pcall(rlx.model.summary, {model = c.model, batch = c.batch, input = c.input,
      classes = c.classes, precision = c.precision, layers = false})
    errors.pass_exits(s)
    self.summaries[k] = ok and type(s) == "table" and {flops = s.train_flops, bytes = s.bytes} or false
  end
  return self.summaries[k] or nil
end

-- Seconds per iteration on the roofline of the peaks (perfect efficiency), or nil.
function Est:_ideal(c, flops, bytes)
  local roof = M.compute_roof(self.peaks, c.precision or "fp32", c.tf32)
  if not roof or not num(flops) then return nil end
  local bw = self.peaks and num(self.peaks.dram_gbps)
  if not (bw and num(bytes) and bytes > 0) then return flops / (roof * 1e9) end
  -- The time at the attainable rate (rlx.roofline.attainable: the one roofline owner).
  return flops / rlx.roofline.attainable(flops / bytes, roof * 1e9, bw * 1e9)
end

--- Learns from a finished run: config (model, precision, batch, input, data) and what it measured
--- (iter_mean_s, seconds, total_s, cv, warmup_samples; train_flops and bytes when known).
function Est:observe(c, m)
  local step = num(m.iter_mean_s)
  if not step then return end
  push(self.measured, key(c), step)
  if num(c.batch) then push(self.per_image, family(c), step / c.batch) end
  local cal = self.cal[cal_key(c)]
  if cal and num(cal.per_image_s) and num(c.batch) then table.insert(self.ratio, step / c.batch / cal.per_image_s) end
  if type(m.cv) == "number" and m.cv >= 0 then
    push(self.cvs, family(c), m.cv)
    push(self.cvs, "*", m.cv)
  end
  local flops, bytes = m.train_flops, m.bytes
  if not num(flops) then
    local s = self:_summary(c)
    if s then flops, bytes = s.flops, s.bytes end
  end
  local ideal = self:_ideal(c, flops, bytes)
  if ideal then
    push(self.eff, tostring(c.model) .. "|" .. tostring(c.precision), ideal / step)
    push(self.eff, tostring(c.precision), ideal / step)
  end
  local counted = num(m.counted_s)
  if counted then
    push(self.counted, family(c), counted / step)
    push(self.counted, "*", counted / step)
  end
  if type(m.warmup_samples) == "table" and num(m.total_s) and num(m.seconds) then
    local warm = 0
    for _, x in ipairs(m.warmup_samples) do warm = warm + x end
    table.insert(self.warm, warm / step)
    local setup = math.max(0, m.total_s - m.seconds - warm - (counted or 0))
    push(self.setup, family(c), setup)
    if cal and type(cal.setup_s) == "number" then table.insert(self.overhead, math.max(0, setup - cal.setup_s)) end
  end
end

--- Seconds per timed iteration of config c and where the figure comes from (see the header);
--- nil when none is possible.
function Est:step(c)
  local m = median(self.measured[key(c)])
  if m then return m, "measured" end
  local s = self:_summary(c)
  local ideal = s and self:_ideal(c, s.flops, s.bytes)
  local prec = tostring(c.precision or "fp32")
  local learned = median(self.eff[tostring(c.model) .. "|" .. prec])
  if ideal and learned then return ideal / learned, "analytic" end
  local cal = self.cal[cal_key(c)]
  if cal and num(cal.per_image_s) and num(c.batch) then
    return cal.per_image_s * c.batch * (median(self.ratio) or 1), "calibrated"
  end
  if not ideal then
    local per_image = num(c.batch) and median(self.per_image[family(c)])
    if per_image then return per_image * c.batch, "measured per image" end
    return nil
  end
  local eff = (M.PRIOR_EFFICIENCY[prec] or {})[c.model] or median(self.eff[prec]) or M.DEFAULT_EFFICIENCY[prec] or
    M.DEFAULT_EFFICIENCY.fp32
  return ideal / eff, "analytic (prior)"
end

--- The step-to-step spread (coefficient of variation) expected for config c: the median of this
--- model's runs here, else of every run here, else of every calibration probe here (pooled: one
--- layout's probe has 2 to 4 timed steps, too few to tell one model's spread from another's; on the
--- H200 one probe's 12 % beside the others' 0.1-0.6 % was one slow step), else M.PRIOR_CV.
function Est:cv(c)
  return median(self.cvs[family(c)]) or median(self.cvs["*"]) or median(self.cal_cvs) or M.PRIOR_CV
end

--- What the plan assumes of the noise, for its one line: "a step CV of 7.1 % (the median of 12
--- runs on this machine)", or the prior's "a step CV of 5 % (assumed: no run on this machine yet;
--- a noisier machine needs more iterations per run, so the plan leaves more out as runs teach it)".
function Est:cv_text()
  local seen = self.cvs["*"] or {}
  if #seen > 0 then
    return string.format("a step CV of %.1f %% (the median of %d run%s on this machine)", median(seen) * 100, #seen,
      #seen == 1 and "" or "s")
  end
  local probed = self.cal_cvs
  if #probed > 0 then
    return string.format("a step CV of %.1f %% (the median of %d layout probe%s of the calibration on this " ..
      "machine, until its runs say more)", median(probed) * 100, #probed, #probed == 1 and "" or "s")
  end
  return string.format("a step CV of %g %% (assumed: no run on this machine yet; a noisier machine needs more " ..
    "iterations per run, so the plan leaves more out as runs teach it)", M.PRIOR_CV * 100)
end

-- Seconds of setup of config c (see the header), given its step.
function Est:_setup_s(c, step)
  local learned = median(self.setup[family(c)])
  if learned then return learned end
  local cal = self.cal[cal_key(c)]
  if cal and type(cal.setup_s) == "number" then return cal.setup_s + (median(self.overhead) or M.RUN_OVERHEAD_S) end
  return M.DEFAULT_SETUP_ITERS * step
end

--- The counted section of config c in steps: none without counters, else this model's runs with
--- counters here, else every such run here, else M.COUNTER_STEPS.
function Est:counter_steps(c)
  if not c.counters then return 0 end
  return median(self.counted[family(c)]) or median(self.counted["*"]) or M.COUNTER_STEPS
end

--- Iterations spent outside the timed section: setup (as iterations of this config's step), the
--- warm-up (a fixed count, or the learned length of warm-up until steady) and the counted section.
function Est:outside(c)
  local step = self:step(c)
  local warm = type(c.warmup) == "number" and c.warmup or (median(self.warm) or M.DEFAULT_WARMUP_ITERS)
  if not step then return M.DEFAULT_SETUP_ITERS + warm + self:counter_steps(c) end
  return self:_setup_s(c, step) / step + warm + self:counter_steps(c)
end

--- Seconds for one run of config c with n timed iterations (c.iters for a fixed count), and the
--- step's source; nil when the step cannot be estimated.
function Est:run(c, n)
  local step, source = self:step(c)
  if not step then return nil end
  return (self:outside(c) + (n or c.iters or 1)) * step, source
end

--- The least timed iterations config c needs to be kept (its CI within S.accept_ci at the spread
--- expected), between S.min_iters and S.max_iters; S.min_iters without accept_ci.
function Est:min_iters(c, S)
  if not S.accept_ci then return S.min_iters end
  return fit.iters_for(self:cv(c), S.accept_ci, S.min_iters, S.max_iters)
end

--- The timed iterations config c is expected to run with a cap of n: it stops when its CI reaches
--- S.target_ci, so the iterations that takes at the spread expected, within [min_iters, n].
function Est:expected_iters(c, n, S)
  if not S.target_ci then return n end
  return math.min(n, fit.iters_for(self:cv(c), S.target_ci, S.min_iters, math.max(S.min_iters, n)))
end

return M
