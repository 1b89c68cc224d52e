-- rlx.roofline: roofline points with every unit explicit. The arithmetic is C++ (engine/peaks/
-- roofline.cpp via rlx._core.roofline); this module picks the roofs out of a peaks table (by
-- precision and memory level) and turns a training run into roofline rows (for_run).
local options = require("rlx.options")
local errors = require("rlx.errors")
local labels = require("rlx.roofline._labels")
local peaks_of = labels.peaks_of
local quality = require("rlx.roofline._quality")
local core = rlx._core.roofline

local M = {}

M.PRECISIONS = {"fp32", "fp64", "tf32", "fp16", "bf16"}
M.LEVELS = {"dram", "l1", "l2", "l3"}


local function peaks_arg(fname, p)
  if type(p) ~= "table" then
    errors.raise(fname, "expected a peaks table (rlx.peaks.measure, rlx.peaks.datasheet, study:peaks), got " ..
      type(p))
  end
  return peaks_of(p)
end

-- Checks a precision or memory level argument against the valid names, under the public name.
local function one_of(fname, what, v, valid, argn)
  if type(v) ~= "string" then
    errors.raise(fname, string.format("the %s (argument %d) must be one of %s, got %s", what, argn,
      table.concat(valid, ", "), type(v)))
  end
  for _, x in ipairs(valid) do if x == v then return v end end
  errors.raise(fname, string.format("unknown %s '%s' (valid %ss: %s)", what, v, what:gsub("^memory ", ""),
    table.concat(valid, ", ")))
end

--- The compute roof (FLOP/s) and the peaks field it came from, for a precision; nil when the
--- table has none. A field name may be given instead of a precision (ceiling = "gemm_fp32_gflops").
function M.compute_roof(peaks, precision, ceiling)
  local fname = "rlx.roofline.compute_roof"
  peaks = peaks_arg(fname, peaks)
  if ceiling ~= nil and type(ceiling) ~= "string" then
    errors.raise(fname, "the ceiling (argument 3) must be a peaks field name such as \"gemm_fp32_gflops\", got " ..
      type(ceiling))
  end
  if ceiling == nil or precision ~= nil then one_of(fname, "precision", precision, M.PRECISIONS, 2) end
  local fields = ceiling and {ceiling} or core.compute_fields(precision)
  for _, f in ipairs(fields) do
    local v = peaks[f]
    if type(v) == "number" and v > 0 then return v * 1e9, f end
  end
  return nil, fields[1]
end

-- A positive finite number from a peaks table, else nil.
local function positive(t, f)
  local v = type(t) == "table" and t[f] or nil
  if type(v) == "number" and v > 0 and v < math.huge then return v end
  return nil
end

--- Whether a peaks table says its CPU emulates bf16; the label of a compute roof field as a chart
--- and a report show it (rlx.roofline._labels, which rlx.roofline.suspect names its suspects with too).
M.bf16_emulated, M.roof_label = labels.bf16_emulated, labels.roof_label

--- The roof a point of `precision` is judged against, by rlx's one roof policy (docs/roofline.md,
--- "Which roof"): a peak measured on the machine before a datasheet figure. Among the peaks table's
--- own figures, the peak of that precision's arithmetic: the matrix unit where the peaks have one
--- (<p>_tensor_gflops: tensor cores, AMX), else its vector rate (<p>_gflops: FMA or VDPBF16PS
--- chains; a CPU that emulates bf16 has the FP32 FMA peak there, labelled emulated), with the GEMM
--- peak (gemm_<p>_gflops) as the second ceiling; without one, the GEMM peak itself (kind = "gemm":
--- what a GPU's measured peaks are). Only a precision the table has no figure of is judged against
--- the datasheet's arithmetic peak. The datasheet figure the measured roof was chosen over is
--- returned as a reference line (datasheet_gflops, datasheet_label). The study's stored points
--- (rlx.roofline.for_run with the stored peaks), the report, the figures and `rlx runs --summary`
--- all call this, so a bound reads the same everywhere. opts: tf32 (an fp32 run with TF32 on: the
--- TF32 tensor roof; ignored for CPU peaks), datasheet (the GPU's entry). Returns {precision, field,
--- gflops, label, kind = "tensor"|"vector"|"gemm", origin = "measured"|"datasheet"|..., emulated,
--- note, gemm_field, gemm_gflops, gemm_label, datasheet_field, datasheet_gflops, datasheet_label},
--- or nil and the first field looked for.
function M.roof(peaks, precision, opts)
  local fname = "rlx.roofline.roof"
  peaks = peaks_arg(fname, peaks)
  one_of(fname, "precision", precision, M.PRECISIONS, 2)
  local o = options.check(fname, opts, {tf32 = {type = "boolean", default = false}, datasheet = {type = "table"}})
  -- rlx.peaks.measure's CUDA tables carry their GPU's entry.
  if o.datasheet == nil and type(peaks.datasheet) == "table" then o.datasheet = peaks.datasheet end
  local prec, note = precision, nil
  if precision == "fp32" and o.tf32 then
    if peaks.device == "cpu" then
      note = "tf32 = true has no effect on the CPU: judged against the FP32 roof"
    else
      prec, note = "tf32", "fp32 run with tf32 = true: judged against a TF32 roof"
    end
  end
  local fields = core.compute_fields(prec)
  local r = {precision = prec, note = note}
  local own = type(peaks.source) == "string" and peaks.source or "measured"
  -- The first arithmetic field a table has (the GEMM field is the last of `fields`).
  local function arithmetic(t)
    for _, f in ipairs(fields) do
      if not f:match("^gemm_") and positive(t, f) then return f, positive(t, f) end
    end
  end
  local gemm = "gemm_" .. prec .. "_gflops"
  if positive(peaks, gemm) then
    r.gemm_field, r.gemm_gflops, r.gemm_label = gemm, positive(peaks, gemm), M.roof_label(peaks, gemm)
  end
  local sheet_field, sheet_gflops = arithmetic(o.datasheet)
  r.field, r.gflops = arithmetic(peaks)
  if r.field then
    r.origin, r.kind = own, r.field:match("_tensor_") and "tensor" or "vector"
    r.label = M.roof_label(peaks, r.field)
  elseif r.gemm_field then
    r.field, r.gflops, r.origin, r.kind, r.label = gemm, r.gemm_gflops, own, "gemm", r.gemm_label
    r.note = (note and (note .. "; ") or "") .. "the measured GEMM is the roof (no " .. prec ..
      " arithmetic peak measured: " .. table.concat(fields, ", ", 1, #fields - 1) .. ")"
  elseif sheet_field then
    r.field, r.gflops, r.origin = sheet_field, sheet_gflops, "datasheet"
    r.kind, r.label = sheet_field:match("_tensor_") and "tensor" or "vector", M.roof_label(o.datasheet, sheet_field)
    sheet_field = nil
  else
    return nil, fields[1]
  end
  if sheet_field and r.origin ~= "datasheet" then
    r.datasheet_field, r.datasheet_gflops = sheet_field, sheet_gflops
    r.datasheet_label = M.roof_label(o.datasheet, sheet_field)
  end
  r.emulated = prec == "bf16" and M.bf16_emulated(peaks) and r.kind ~= "tensor"
  return r
end

--- The memory roof (byte/s) of a level ("dram", "l1", "l2", "l3") and its field; nil when absent.
function M.memory_roof(peaks, level)
  local fname = "rlx.roofline.memory_roof"
  peaks = peaks_arg(fname, peaks)
  one_of(fname, "memory level", level, M.LEVELS, 2)
  local f = core.memory_field(level)
  local v = peaks[f]
  if type(v) == "number" and v > 0 then return v * 1e9, f end
  return nil, f
end

--- One roofline point. Roofs either explicit (peak_flops in FLOP/s, peak_bw in byte/s) or taken
--- from `peaks` (a peaks table or an environment holding one) by `precision` and `level`.
function M.point(opts)
  local o = options.check("rlx.roofline.point", opts, {
    flops = {type = "number", required = true},
    bytes = {type = "number", required = true},
    seconds = {type = "number", required = true},
    peak_flops = {type = "number"},
    peak_bw = {type = "number"},
    peaks = {type = "table"},
    precision = {type = "string", one_of = M.PRECISIONS, default = "fp32"},
    level = {type = "string", one_of = M.LEVELS, default = "dram"},
    ceiling = {type = "string"},
  })
  local peak_flops, peak_bw, cfield, mfield = o.peak_flops, o.peak_bw, nil, nil
  if o.peaks then
    if not peak_flops then
      peak_flops, cfield = M.compute_roof(o.peaks, o.precision, o.ceiling)
      if not peak_flops then
        errors.raise("rlx.roofline.point", string.format("the peaks table has no '%s' field; give peak_flops= " ..
          "(FLOP/s) or a peaks table with it", cfield))
      end
    end
    if not peak_bw then
      peak_bw, mfield = M.memory_roof(o.peaks, o.level)
      if not peak_bw then
        errors.raise("rlx.roofline.point", string.format("the peaks table has no '%s' field; give peak_bw= " ..
          "(byte/s) or a peaks table with it", mfield))
      end
    end
  end
  if not peak_flops then
    errors.raise("rlx.roofline.point", "option 'peak_flops' is required (FLOP/s), or give peaks= (a peaks table)")
  end
  if not peak_bw then
    errors.raise("rlx.roofline.point", "option 'peak_bw' is required (byte/s), or give peaks= (a peaks table)")
  end
  local p = core.point{flops = o.flops, bytes = o.bytes, seconds = o.seconds, peak_flops = peak_flops,
    peak_bw = peak_bw}
  p.precision = o.precision
  p.level = o.level
  p.compute_field = cfield
  p.memory_field = mfield
  return p
end

--- Every roof a peaks table knows: {name, kind = "compute"|"memory", label, value, unit}.
function M.ceilings(peaks)
  errors.expect("rlx.roofline.ceilings", peaks, "table", "a peaks table")
  return core.ceilings(peaks_of(peaks))
end

--- The roof at intensity ai (FLOP/byte) in FLOP/s: min(ai * peak_bw, peak_flops).
M.attainable = core.attainable

--- The placement of a point known by its intensity and rate (a group's means, a CSV row):
--- place{ai =, flops_per_s =, peak_flops =, peak_bw =} -> point's fields by point's rules.
M.place = core.place

--- The ridge (FLOP/byte) of a compute roof (FLOP/s) and a memory roof (byte/s).
M.ridge = core.ridge

-- The roofline precision of a training precision ("fp32", "amp" = fp16 autocast, "bf16", ...).
function M.precision_of(p)
  if type(p) ~= "string" then return "fp32" end
  p = p:lower()
  if p:find("bf16") then return "bf16" end
  if p == "amp" or p:find("fp16") or p:find("half") then return "fp16" end
  if p:find("tf32") then return "tf32" end
  if p:find("fp64") or p == "double" then return "fp64" end
  return "fp32"
end

-- The complexity row of a run's batch when `complexity` is a list of rows (one per batch size).
local function complexity_row(c, batch)
  if type(c) ~= "table" then return nil end
  if c.train_flops ~= nil or c[1] == nil then return c end
  for _, row in ipairs(c) do
    if row.batch == batch then return row end
  end
  return #c == 1 and c[1] or nil
end

local function row(peaks, ro, level, flops, bytes, seconds, source)
  local r = {level = level, precision = ro.precision, flops = flops, bytes = bytes, seconds = seconds,
    ai = flops / bytes, gflops = flops / seconds / 1e9, source = source}
  if peaks then
    local roof, cfield = M.roof(peaks, ro.precision, {tf32 = ro.tf32, datasheet = ro.datasheet})
    local pb, mfield = M.memory_roof(peaks, level)
    r.compute_field, r.memory_field = roof and roof.field or cfield, mfield
    if roof then
      -- The precision the point is judged as: tf32 for an fp32 run with TF32 on (CUDA).
      r.precision = roof.precision
      r.roof_label, r.roof_kind, r.roof_origin, r.roof_note = roof.label, roof.kind, roof.origin, roof.note
      r.emulated, r.gemm_gflops = roof.emulated, roof.gemm_gflops
    end
    if roof and pb then
      local p = core.point{flops = flops, bytes = bytes, seconds = seconds, peak_flops = roof.gflops * 1e9,
        peak_bw = pb}
      r.attainable_gflops, r.ridge_ai, r.bound = p.attainable_gflops, p.ridge_ai, p.bound
      r.efficiency, r.above_roof = p.efficiency, p.above_roof
      r.peak_gflops, r.peak_gbps = p.peak_gflops, p.peak_gbps
      local s = p.above_roof and M.suspect(r, peaks) or nil
      r.suspect = s and s.text or nil
    end
  end
  return r
end

--- Roofline rows of one training run: from measured counters (result.counters.derived: flops,
--- dram_bytes, l2_bytes over `iterations` counted iterations) when present, else from the analytic
--- complexity (train_flops and bytes per iteration). Either way the time is the mean *timed*
--- iteration (result.iter_s.mean): counted iterations run after the timed ones with counters
--- active, so their own time is never a speed. Each row is tagged source = "measured" (with
--- counters_source = "cupti", "perf_event" or "ncu") or "estimated". Without peaks the rows have
--- ai and gflops but no roofs.
function M.for_run(result, opts)
  errors.expect("rlx.roofline.for_run", result, "table", "a run result table")
  local o = options.check("rlx.roofline.for_run", opts, {
    peaks = {type = "table"},
    complexity = {type = "table"},
    precision = {type = "string"},
    tf32 = {type = "boolean"},
    datasheet = {type = "table"},
  })
  local peaks = o.peaks and peaks_of(o.peaks) or nil
  local cfg = type(result.config) == "table" and result.config or {}
  local tf32 = o.tf32
  if tf32 == nil then tf32 = result.tf32 == true or cfg.tf32 == true end
  local ro = {precision = M.precision_of(o.precision or result.precision or cfg.precision), tf32 = tf32,
    datasheet = o.datasheet}
  local iter_s = type(result.iter_s) == "table" and result.iter_s.mean or nil
  local rows = {}
  local counters = type(result.counters) == "table" and result.counters or nil
  local derived = counters and type(counters.derived) == "table" and counters.derived or nil
  -- Results from before counted iterations have no count: their counters covered the timed ones.
  local n = derived and (derived.iterations or counters.iterations or result.iters or cfg.iters) or nil
  if derived and type(derived.flops) == "number" and derived.flops > 0 and type(n) == "number" and n > 0 and
    iter_s and iter_s > 0 then
    -- Counter totals cover n counted iterations: per iteration, over the mean timed iteration.
    for _, lv in ipairs({{"dram", "dram_bytes"}, {"l2", "l2_bytes"}}) do
      local b = derived[lv[2]]
      if type(b) == "number" and b > 0 then
        local r = row(peaks, ro, lv[1], derived.flops / n, b / n, iter_s, "measured")
        r.counters_source = type(counters.source) == "string" and counters.source or nil
        rows[#rows + 1] = r
      end
    end
  end
  if #rows == 0 then
    local c = complexity_row(o.complexity, result.batch or cfg.batch)
    if c and type(c.train_flops) == "number" and type(c.bytes) == "number" and c.bytes > 0 and iter_s and
      iter_s > 0 then
      rows[#rows + 1] = row(peaks, ro, "dram", c.train_flops, c.bytes, iter_s, "estimated")
    end
  end
  return rows
end

-- Bytes a layer moves beyond rlx's minimum traffic when every pass runs as its own kernel, with no
-- reuse between kernels (M.traffic_range).
local function extra_bytes(l)
  local i, o = tonumber(l.input_bytes) or 0, tonumber(l.output_bytes) or 0
  if l.kind == "bn" then return i + o + i end  -- forward statistics pass; backward reduction pass
  if (l.kind == "conv" or l.kind == "linear") and l.input_grad then return o end  -- dgrad and wgrad kernels
  if l.kind == "add" then return 3 * o end  -- the two gradients of the branch point summed
  return 0
end

local traffic_cache = {}

--- A training iteration's DRAM traffic as a range (docs/roofline.md, "Estimated points"): from rlx's
--- minimum (rlx.model.summary's `bytes`: each tensor a layer touches crosses DRAM once per use, no
--- reuse between layers, perfect reuse inside one) to an upper model in which every pass runs as its
--- own kernel with nothing reused between kernels: batchnorm reads its input again for its
--- statistics forward and its output gradient and saved input again for its reduction backward; a
--- conv or linear layer's backward runs two kernels (input gradient, weight gradient), each reading
--- the output gradient; the two gradients of a tensor used twice (a residual branch) are summed
--- (read two, write one). Not in either: re-reads by a kernel whose working set outgrows the caches
--- (tiling), workspaces, layout conversions. opts: model, batch, input, classes, precision.
--- Returns {min_bytes, upper_bytes, flops} per iteration, or nil and why.
function M.traffic_range(opts)
  local o = options.check("rlx.roofline.traffic_range", opts, {model = {type = "string", required = true},
    batch = {type = "integer", min = 1, required = true}, input = {type = "integer", min = 1},
    classes = {type = "integer", min = 1}, precision = {type = "string"}})
  local key = table.concat({o.model, o.batch, tostring(o.input), tostring(o.classes), tostring(o.precision)}, "|")
  if traffic_cache[key] == nil then
    local ok, s = pcall(rlx.model.summary, {model = o.model, batch = o.batch, input = o.input, classes = o.classes,
      precision = o.precision, layers = true})
    if ok and type(s) == "table" and type(s.bytes) == "number" and s.bytes > 0 then
      local extra = 0
      for _, l in ipairs(s.layers or {}) do extra = extra + extra_bytes(l) end
      traffic_cache[key] = {min_bytes = s.bytes, upper_bytes = s.bytes + extra, flops = s.train_flops}
    else
      traffic_cache[key] = {why = ok and "no byte count" or errors.message(errors.pass_exits(s))}
    end
  end
  local t = traffic_cache[key]
  if t.why then return nil, t.why end
  return {min_bytes = t.min_bytes, upper_bytes = t.upper_bytes, flops = t.flops}
end

-- The quality of peaks and the suspects of a point above its roof (rlx.roofline._quality).
M.peak_quality, M.suspect = quality.peak_quality, quality.suspect

return M
