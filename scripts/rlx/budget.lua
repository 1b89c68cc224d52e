-- rlx.budget: what a study costs before it runs, and the per-run caps that make it fit a time
-- budget (issue 21; docs/study.md "Time budget").
--
-- A run's time is estimated as (setup + warm-up + n) x step: n timed iterations of `step` seconds,
-- plus the warm-up iterations and a setup (model build, noise-floor probe, the first iteration's
-- extra cost), both counted in iterations. `step` comes, best first, from
--   1. finished runs of the same configuration in this environment (the median of their mean
--      iteration times): source "measured";
--   2. the model's analytic FLOPs and bytes per iteration (rlx.model.summary) over the roofline
--      of the measured peaks (time = max(FLOPs / compute roof, bytes / DRAM bandwidth)), divided
--      by an efficiency: the median seen so far for this model and precision, else the measured
--      prior M.PRIOR_EFFICIENCY for this model, else the median seen for this precision, else
--      M.DEFAULT_EFFICIENCY: source "analytic".
-- Warm-up and setup are learned the same way from finished runs (their warmup_samples and
-- total_s), else M.DEFAULT_WARMUP_ITERS and M.DEFAULT_SETUP_ITERS.
--
-- The caps (M.caps): timed iterations for every run still to do, in proportion to 1 / sqrt(its
-- step), between the scale's min_iters and max_iters, as many as fit the time left. The next run
-- gets max_iters = n
-- and max_seconds = n x step x M.SECONDS_SLACK, so a step slower than estimated cannot eat the
-- budget; a run that reaches its CI target early leaves its time to the runs after it, since the
-- caps are worked out again before every run.
local errors = require("rlx.errors")
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
-- Warm-up until steady typically stops after 3 iterations (the first is slow, the next two agree).
M.DEFAULT_WARMUP_ITERS = 3
-- Model build, noise-floor probe and the first iteration's extra cost, in iterations.
M.DEFAULT_SETUP_ITERS = 1
M.SECONDS_SLACK = 1.5
-- The share of a sweep's budget its caps leave for rerunning the runs that ended unsteady or
-- shared their cores (study.md, "Time budget"): measured, the default study filled its 30 minutes
-- with the matrix alone and 4 of its 27 runs stayed unsteady for want of a minute each.
M.RERUN_RESERVE = 0.1

local function median(xs)
  if not xs or #xs == 0 then return nil end
  local s = {}
  for i, x in ipairs(xs) do s[i] = x end
  table.sort(s)
  local n = #s
  return n % 2 == 1 and s[(n + 1) / 2] or (s[n / 2] + s[n / 2 + 1]) / 2
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

local Est = {}
Est.__index = Est

--- An estimator for the runs of `study` on device kind `kind` ("cpu" or "cuda"), primed with the
--- study's finished runs in this environment. opts.peaks: the peaks to use (default the stored
--- ones, else opts.probe() when given).
function M.estimator(study, kind, opts)
  opts = opts or {}
  local self = setmetatable({study = study, kind = kind, measured = {}, per_image = {}, eff = {}, warm = {},
    setup = {}, summaries = {}}, Est)
  self.peaks = opts.peaks or study:peaks(kind)
  if not self.peaks and opts.probe then self.peaks, self.peaks_source = opts.probe(), "probe" end
  for _, r in ipairs(study.db:runs{study = study.name, status = "ok"}) do
    local dev = tostring(r.device or "cpu")
    if r.environment_id == study.env_id and (dev:match("^cuda") and "cuda" or "cpu") == kind then
      local res = type(r.result) == "table" and r.result or {}
      local cfg = type(r.config) == "table" and r.config or {}
      self:observe({model = r.model, precision = r.precision, batch = r.batch,
        input = r.input or res.input or cfg.input, data = cfg.data}, {
        iter_mean_s = r.iter_mean_s, seconds = r.seconds, total_s = r.total_s,
        warmup_samples = res.warmup_samples, train_flops = r.train_flops, bytes = r.complexity_bytes})
    end
  end
  return self
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
  local t = flops / (roof * 1e9)
  local bw = self.peaks and num(self.peaks.dram_gbps)
  if bw and num(bytes) then t = math.max(t, bytes / (bw * 1e9)) end
  return t
end

--- Learns from a finished run: config (model, precision, batch, input, data) and what it measured
--- (iter_mean_s, seconds, total_s, warmup_samples; train_flops and bytes when known).
function Est:observe(c, m)
  local step = num(m.iter_mean_s)
  if not step then return end
  push(self.measured, key(c), step)
  if num(c.batch) then push(self.per_image, family(c), step / c.batch) end
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
  if type(m.warmup_samples) == "table" and num(m.total_s) and num(m.seconds) then
    local warm = 0
    for _, x in ipairs(m.warmup_samples) do warm = warm + x end
    table.insert(self.warm, warm / step)
    table.insert(self.setup, math.max(0, m.total_s - m.seconds - warm) / step)
  end
end

--- Seconds per timed iteration of config c and where the figure comes from ("measured",
--- "analytic", or for a model rlx.model cannot describe, "measured per image": other batch sizes
--- of it scaled by images); nil when none is possible.
function Est:step(c)
  local m = median(self.measured[key(c)])
  if m then return m, "measured" end
  local s = self:_summary(c)
  local ideal = s and self:_ideal(c, s.flops, s.bytes)
  if not ideal then
    local per_image = num(c.batch) and median(self.per_image[family(c)])
    if per_image then return per_image * c.batch, "measured per image" end
    return nil
  end
  local prec = tostring(c.precision or "fp32")
  local eff = median(self.eff[tostring(c.model) .. "|" .. prec]) or (M.PRIOR_EFFICIENCY[prec] or {})[c.model] or
    median(self.eff[prec]) or M.DEFAULT_EFFICIENCY[prec] or M.DEFAULT_EFFICIENCY.fp32
  return ideal / eff, "analytic"
end

--- Iterations spent outside the timed section: setup plus the warm-up (a fixed count, or the
--- learned length of warm-up until steady).
function Est:outside(c)
  local warm = type(c.warmup) == "number" and c.warmup or (median(self.warm) or M.DEFAULT_WARMUP_ITERS)
  return (median(self.setup) or M.DEFAULT_SETUP_ITERS) + warm
end

--- Seconds for one run of config c with n timed iterations (c.iters for a fixed count), and the
--- step's source; nil when the step cannot be estimated.
function Est:run(c, n)
  local step, source = self:step(c)
  if not step then return nil end
  return (self:outside(c) + (n or c.iters or 1)) * step, source
end

-- Timed iterations of a run of step seconds at allocation k: k / sqrt(step) between the bounds.
local function iters_at(k, step, S)
  return math.max(S.min_iters, math.min(S.max_iters, math.floor(k / math.sqrt(step))))
end

--- The caps for configs still to run (configs[1] is the next one) in left_s seconds, for a
--- precision-targeted scale S (min_iters, max_iters). Timed iterations go to each run in
--- proportion to 1 / sqrt(its step time), scaled to fill the time left: for a fixed time, that
--- minimises the sum of the runs' squared CI half-widths (half-width^2 ~ cv^2 / n; minimising
--- sum 1 / n_i under sum n_i x step_i = T gives n_i ~ step_i^-1/2), so a MobileNetV2 step of 0.5 s
--- gets about 6x the iterations of a VGG-16 step of 20 s instead of the same count, at a small
--- cost to the slow runs. Returns {n (configs[1]'s), ns (each config's, nil without an
--- estimate), fits, need_s (at min_iters), total_s (at ns), unknown (runs without an estimate)}.
function M.caps(est, configs, left_s, S)
  local steps, fixed_s, need, unknown = {}, 0, 0, 0
  for i, c in ipairs(configs) do
    steps[i] = est:step(c)
    if steps[i] then
      fixed_s = fixed_s + est:outside(c) * steps[i]
      need = need + (est:outside(c) + S.min_iters) * steps[i]
    else
      unknown = unknown + 1
    end
  end
  local function timed_s(k)
    local t = 0
    for _, step in pairs(steps) do t = t + iters_at(k, step, S) * step end
    return t
  end
  -- The largest k whose runs fit: at hi every run is at max_iters; bisect below it.
  local lo, hi = 0, 0
  for _, step in pairs(steps) do hi = math.max(hi, (S.max_iters + 1) * math.sqrt(step)) end
  if fixed_s + timed_s(hi) <= left_s then lo = hi
  else
    for _ = 1, 60 do
      local mid = (lo + hi) / 2
      if fixed_s + timed_s(mid) <= left_s then lo = mid else hi = mid end
    end
  end
  local ns = {}
  for i in ipairs(configs) do ns[i] = steps[i] and iters_at(lo, steps[i], S) or nil end
  local first = ns[1]
  if not first then  -- no estimate for the next run: the count of a median-speed run
    local known = {}
    for _, step in pairs(steps) do known[#known + 1] = step end
    first = #known > 0 and iters_at(lo, median(known), S) or S.min_iters
  end
  return {n = first, ns = ns, fits = need <= left_s, need_s = need, total_s = fixed_s + timed_s(lo), unknown = unknown}
end

--- Per-run caps for the next run (configs[1]), to pass to rlx.train: max_iters, max_seconds and,
--- for warm-up until steady, max_warmup = n between 3 and 10 (a warm-up that has not settled by
--- then is left to the timed section's steady-state verdict rather than eating the budget).
function M.next_caps(est, configs, left_s, S)
  local plan = M.caps(est, configs, left_s, S)
  local c = configs[1]
  local step = est:step(c)
  local caps = {max_iters = plan.n}
  if step then caps.max_seconds = plan.n * step * M.SECONDS_SLACK end
  if c.warmup == nil or c.warmup == "auto" then caps.max_warmup = math.max(3, math.min(c.max_warmup or 10, plan.n)) end
  return caps, plan
end

--- "30m", "1.5h", "90s", "1800" (seconds) -> seconds; "none", "0" and nil -> nil (no budget). Raises for
--- anything else, naming the forms.
function M.parse_duration(text, fname)
  if text == nil then return nil end
  if type(text) == "number" then return text > 0 and text or nil end
  local s = tostring(text):lower():gsub("%s", "")
  if s == "none" or s == "0" or s == "" then return nil end
  local n, unit = s:match("^(%d+%.?%d*)([smh]?)$")
  if not n then
    errors.raise(fname or "rlx.budget.parse_duration", string.format("a duration is a number with s, m or h " ..
      "(e.g. 30m, 1.5h, 900s) or none, got '%s'", tostring(text)))
  end
  return tonumber(n) * ({s = 1, m = 60, h = 3600})[unit == "" and "s" or unit]
end

--- 95 -> "1.6 min", 4000 -> "1.1 h", 30 -> "30 s", 0.42 -> "0.4 s".
function M.duration_text(s)
  if s >= 3600 then return string.format("%.1f h", s / 3600) end
  if s >= 60 then return string.format("%.1f min", s / 60) end
  return string.format(s < 10 and "%.1f s" or "%.0f s", s)
end

return M
