-- rlx.plot: figures drawn with Cairo (plotting/ in C++, rlx._core.plot). Each call writes one file,
-- PNG, SVG or PDF by the extension of `out`, and returns where it drew: {out, format, width,
-- height, plot = {x0, y0, x1, y1}, x = {scale, min, max, px_min, px_max}, y = {...}} with a method
-- info:px(x, y) giving the pixel of a data point. This module adds the conveniences that are easier
-- in Lua: peaks tables to roofs and ceilings, colour and shape by any field, arrows between related
-- points, and AI-vs-batch series from roofline points.
local options = require("rlx.options")
local errors = require("rlx.errors")
local stats = require("rlx.stats")
local core = rlx._core.plot
local M = {}

local info_mt = {__index = {}}
--- Pixel position of data (x, y) in the figure, exactly as the chart mapped it.
function info_mt.__index.px(info, x, y)
  local function map(a, v)
    local t, lo, hi = v, a.min, a.max
    if a.scale == "log" then t, lo, hi = math.log10(v), math.log10(lo), math.log10(hi) end
    return a.px_min + (t - lo) / (hi - lo) * (a.px_max - a.px_min)
  end
  return map(info.x, x), map(info.y, y)
end
local function wrap(info) return setmetatable(info, info_mt) end
M.info_metatable = info_mt  -- the REPL prints a chart's info as nothing (rows:plot printed its path)

local common = {
  out = {type = "string", required = true}, title = {type = "string"}, subtitle = {type = "string"},
  xlabel = {type = "string"}, ylabel = {type = "string"}, width = {type = "integer", min = 100},
  height = {type = "integer", min = 100}, dpi = {type = "number"}, xmin = {type = "number"},
  xmax = {type = "number"}, ymin = {type = "number"}, ymax = {type = "number"},
  legend = {type = "boolean"}, grid = {type = "boolean"},
}
local function spec_with(extra)
  local s = {}
  for k, v in pairs(common) do s[k] = v end
  for k, v in pairs(extra) do s[k] = v end
  return s
end
local function copy_common(o, into)
  for k in pairs(common) do into[k] = o[k] end
  return into
end

-- A peak value may be a number or {value = n, ...} (as stored rows are).
local function peak_value(v)
  if type(v) == "table" then v = v.value end
  if type(v) == "number" and v > 0 and v == v then return v end
  return nil
end

local level_order = {l1 = 1, l2 = 2, l3 = 3, llc = 3, dram = 4, hbm = 4, mem = 4}
-- Which ceilings a precision uses: amp runs its matrix work in fp16.
local precision_prefix = {amp = "fp16", fp16 = "fp16", bf16 = "bf16", fp32 = "fp32", tf32 = "tf32", fp64 = "fp64"}

--- Memory roofs and compute ceilings from a peaks table ({dram_gbps=, l2_gbps=, fp32_gflops=,
--- bf16_gflops=, ...}); ceilings are limited to the precisions in `used` when any match.
function M.roofs_from_peaks(peaks, used)
  if type(peaks) ~= "table" then
    errors.raise("rlx.plot.roofs_from_peaks", "expected a peaks table ({dram_gbps=, fp32_gflops=, ...}), got " ..
      type(peaks))
  end
  if used ~= nil and type(used) ~= "table" then
    errors.raise("rlx.plot.roofs_from_peaks", "used (argument 2) must be a set of precisions such as " ..
      "{fp32 = true} or nil, got " .. type(used))
  end
  local roofs, ceilings = {}, {}
  for k, v in pairs(peaks) do
    local val = peak_value(v)
    if type(k) == "string" and val then
      local level = k:match("^(.+)_gbps$")
      local prec = k:match("^(.+)_gflops$")
      if level then roofs[#roofs + 1] = {label = level:upper(), gbps = val, order = level_order[level] or 0} end
      if prec then ceilings[#ceilings + 1] = {label = prec, gflops = val} end
    end
  end
  table.sort(roofs, function(a, b) return a.order > b.order or (a.order == b.order and a.label < b.label) end)
  for _, r in ipairs(roofs) do r.order = nil end
  table.sort(ceilings, function(a, b) return a.gflops > b.gflops end)
  if used and next(used) then
    -- Keep the ceilings naming a precision in use as one of their words: fp32_gflops,
    -- gemm_fp32_gflops and fp16_tensor_gflops (for amp) all qualify.
    local keep = {}
    for _, c in ipairs(ceilings) do
      local words = "_" .. c.label .. "_"
      for p in pairs(used) do
        local prefix = precision_prefix[p] or p
        if words:find("_" .. prefix .. "_", 1, true) then keep[#keep + 1] = c; break end
      end
    end
    if #keep > 0 then ceilings = keep end
  end
  for _, c in ipairs(ceilings) do c.label = c.label:gsub("_", " ") end
  return roofs, ceilings
end

local roofline_spec = spec_with({
  points = {type = "table"}, peak_flops = {type = "number"}, peak_bw = {type = "number"},
  peak_gflops = {type = "number"}, peak_gbps = {type = "number"}, roofs = {type = "table"},
  ceilings = {type = "table"}, peaks = {type = "table"}, arrows = {type = "any"},
  color_by = {type = "string", default = "model"}, shape_by = {type = "string", default = "precision"},
  color_title = {type = "string"}, shape_title = {type = "string"}, label_by = {type = "string"},
})

--- Roofline chart. points: {{ai=, gflops=, label=, model=, precision=, roof_gflops=, roof_gbps=,
--- ai_lo=, ai_hi=, ...}} (roof_*: the point's own roofs, judging whether it is above its roof; default
--- the chart's highest; ai_lo/ai_hi: the AI the point may have, drawn as a horizontal bar); roofs
--- from peak_bw (byte/s) / peak_gbps, roofs = {{label=, gbps=}}, or peaks = {dram_gbps=, ...};
--- ceilings from peak_flops (FLOP/s) / peak_gflops, ceilings = {{label=, gflops=, secondary=}}
--- (secondary: a second, practical ceiling or a reference drawn grey), or peaks = {fp32_gflops=, ...}.
function M.roofline(opts)
  local o = options.check("rlx.plot.roofline", opts, roofline_spec)
  local points = o.points or {}
  local used = {}
  for i, p in ipairs(points) do
    if type(p) ~= "table" then errors.raise("rlx.plot.roofline", ("points[%d] must be a table {ai=, gflops=, ...}"):format(i)) end
    if p[o.shape_by] ~= nil then used[tostring(p[o.shape_by])] = true end
  end
  local roofs, ceilings = {}, {}
  if o.peaks then roofs, ceilings = M.roofs_from_peaks(o.peaks, used) end
  for _, r in ipairs(o.roofs or {}) do roofs[#roofs + 1] = r end
  for _, c in ipairs(o.ceilings or {}) do ceilings[#ceilings + 1] = c end
  -- Checked here, by the name the caller gave: below they become roofs[i] and ceilings[i].
  for _, k in ipairs({"peak_flops", "peak_bw", "peak_gflops", "peak_gbps"}) do
    local v = o[k]
    if v ~= nil and not (v > 0 and v < math.huge) then
      errors.raise("rlx.plot.roofline", ("option '%s' must be a positive finite number (%s), got %s"):format(k,
        ({peak_flops = "FLOP/s", peak_bw = "byte/s", peak_gflops = "GFLOP/s", peak_gbps = "GB/s"})[k], tostring(v)))
    end
  end
  if o.peak_flops then
    if o.peak_flops < 1e6 then
      errors.raise("rlx.plot.roofline", ("peak_flops is in FLOP/s and %g looks like GFLOP/s: pass peak_gflops=%g " ..
        "instead"):format(o.peak_flops, o.peak_flops))
    end
    ceilings[#ceilings + 1] = {label = "peak", gflops = o.peak_flops / 1e9}
  end
  if o.peak_gflops then ceilings[#ceilings + 1] = {label = "peak", gflops = o.peak_gflops} end
  if o.peak_bw then
    if o.peak_bw < 1e6 then
      errors.raise("rlx.plot.roofline", ("peak_bw is in byte/s and %g looks like GB/s: pass peak_gbps=%g instead"):format(
        o.peak_bw, o.peak_bw))
    end
    roofs[#roofs + 1] = {label = "DRAM", gbps = o.peak_bw / 1e9}
  end
  if o.peak_gbps then roofs[#roofs + 1] = {label = "DRAM", gbps = o.peak_gbps} end
  if #roofs == 0 or #ceilings == 0 then
    errors.raise("rlx.plot.roofline", "no " .. (#roofs == 0 and "memory roof" or "compute ceiling") ..
      ": pass peak_bw= and peak_flops= (byte/s, FLOP/s), peak_gbps=/peak_gflops=, roofs=/ceilings=, or peaks=")
  end
  local native_points = {}
  for i, p in ipairs(points) do
    local label = p.label
    if o.label_by then label = p[o.label_by] and tostring(p[o.label_by]) or nil end
    if label == nil and p.batch then label = "bs" .. tostring(p.batch) end
    native_points[i] = {ai = p.ai, gflops = p.gflops, label = label or "",
      color_key = p[o.color_by] ~= nil and tostring(p[o.color_by]) or "",
      shape_key = p[o.shape_by] ~= nil and tostring(p[o.shape_by]) or "",
      roof_gflops = p.roof_gflops, roof_gbps = p.roof_gbps, ai_lo = p.ai_lo, ai_hi = p.ai_hi}
  end
  local arrows = o.arrows
  if arrows == true then arrows = M.related_arrows(points, o.shape_by)
  elseif arrows ~= nil and type(arrows) ~= "table" then
    errors.raise("rlx.plot.roofline", "option 'arrows' must be true or an array of {from=, to=}, got " .. type(arrows))
  end
  local n = copy_common(o, {roofs = roofs, ceilings = ceilings, points = native_points, arrows = arrows,
    color_title = o.color_title or o.color_by, shape_title = o.shape_title or o.shape_by})
  return wrap(core.roofline(n))
end

--- Arrows from each fp32 point to the points of the same configuration in another precision
--- (same model, batch and env; `shape_by` names the precision field).
function M.related_arrows(points, shape_by)
  if type(points) ~= "table" then
    errors.raise("rlx.plot.related_arrows", "expected an array of points {model=, batch=, precision=, ...}, got " ..
      type(points))
  end
  if shape_by ~= nil and type(shape_by) ~= "string" then
    errors.raise("rlx.plot.related_arrows", "shape_by (argument 2) must be a point field name (string) or nil, got " ..
      type(shape_by))
  end
  for i, p in ipairs(points) do
    if type(p) ~= "table" then
      errors.raise("rlx.plot.related_arrows", string.format(
        "points[%d] must be a table {model=, batch=, precision=, ...}, got %s", i, type(p)))
    end
  end
  shape_by = shape_by or "precision"
  local base, arrows = {}, {}
  local function key(p) return table.concat({tostring(p.model), tostring(p.batch), tostring(p.env), tostring(p.level)}, "|") end
  for i, p in ipairs(points) do
    if p[shape_by] == "fp32" then base[key(p)] = i end
  end
  for i, p in ipairs(points) do
    local from = base[key(p)]
    if from and from ~= i and p[shape_by] ~= "fp32" then arrows[#arrows + 1] = {from = from, to = i} end
  end
  return arrows
end

--- Throughput vs batch: series = {{label=, x=batches, y=mean images/s, sd=SD}, ...}.
function M.throughput(opts) return wrap(core.throughput(opts)) end

--- Variability of one configuration: groups = {{label=env, values={images/s per repeat}}, ...}.
function M.variability(opts) return wrap(core.variability(opts)) end

--- Generic line chart (kind = "scatter" for points only); xscale/yscale "linear" | "log".
function M.line(opts) return wrap(core.line(opts)) end

--- Scatter chart: rlx.plot.line with kind = "scatter".
function M.scatter(opts)
  if type(opts) == "table" and opts.kind == nil then
    local o = {}
    for k, v in pairs(opts) do o[k] = v end
    o.kind = "scatter"
    opts = o
  end
  return wrap(core.line(opts, "rlx.plot.scatter"))
end

local ai_spec = spec_with({points = {type = "table", required = true}, model = {type = "string"},
  by = {type = "string_list", default = {"precision"}}, ridges = {type = "table"}, color_by = {type = "string"},
  marks = {type = "table"}, yscale = {type = "string", one_of = {"linear", "log"}, default = "linear"}})

-- Colours and markers of ai_vs_batch's lines (k = a line's key): one colour per value of the
-- color_by field, in order of first appearance, and one marker per value of the other `by` fields,
-- so the same precision has the same marker in every environment; without color_by, nil (one
-- colour and marker per line, rlx.plot.line's).
local function line_styles(o, order, first_point)
  if not o.color_by then return nil end
  local colour, marker, nc, nm, out = {}, {}, 0, 0, {}
  for _, k in ipairs(order) do
    local p, rest = first_point[k], {}
    for _, f in ipairs(o.by) do if f ~= o.color_by then rest[#rest + 1] = tostring(p[f]) end end
    local ck, mk = tostring(p[o.color_by]), table.concat(rest, " ")
    if not colour[ck] then nc = nc + 1; colour[ck] = nc end
    if not marker[mk] then nm = nm + 1; marker[mk] = nm end
    out[k] = {color = colour[ck], marker = marker[mk]}
  end
  out.colour_of = colour
  return out
end

-- Where each ridge's tag is written: {end = 1 (left) | 2 (right), below = bool}. At the left end
-- above its line, unless a ridge lies within a factor of 1.6 of another (the Zen 3's and Zen 5's,
-- 4.78 and 6.21 FLOP/byte, wrote one tag over the other): then the lower one's tag goes under its
-- line, and a third close one's to the right end.
local CLOSE = 1.6
local function ridge_tags(ridges)
  local sorted, at, last_left = {}, {}, nil
  for _, r in ipairs(ridges) do sorted[#sorted + 1] = r end
  table.sort(sorted, function(a, b) return a.ai < b.ai end)
  for i, r in ipairs(sorted) do
    local nxt = sorted[i + 1]
    if last_left and r.ai / last_left < CLOSE and not at[r] then
      at[r] = {side = 2}
    elseif not at[r] then
      at[r] = {side = 1, below = nxt ~= nil and nxt.ai / r.ai < CLOSE}
      last_left = r.ai
      if at[r].below then at[nxt] = {side = 1}; last_left = nxt.ai end
    end
  end
  return at
end

-- marks = {filled = "measured", hollow = "estimated"}: legend rows saying what a filled and a
-- hollow marker mean, for the kinds the points hold (a point with hollow = true is drawn hollow).
local function mark_rows(o, any_hollow, any_filled)
  local rows = {}
  if type(o.marks) ~= "table" then return rows end
  for _, m in ipairs({{"filled", any_filled, false}, {"hollow", any_hollow, true}}) do
    local text = o.marks[m[1]]
    if m[2] and type(text) == "string" then
      rows[#rows + 1] = {label = m[1] .. ": " .. text, x = {}, y = {}, line = false, marker = "circle",
        color = "#555555", hollow = m[3]}
    end
  end
  return rows
end

--- Arithmetic intensity vs batch size: points (roofline points with batch, ai and precision, an
--- optional label drawn beside the point, e.g. "n=1", and hollow = true for a point drawn hollow, an
--- estimate) of one model (model= filters), one line per value of the `by` fields (default
--- precision); color_by = a `by` field whose value sets a line's colour (markers then tell the other
--- fields apart); marks = {filled = text, hollow = text} adds legend rows saying what each marker
--- means; ridges = {{label=, ai=, key=, tag=}} adds a dashed line at each ridge, grey, or in the
--- colour of the lines whose color_by value is `key`, with `tag` written on it at its left end;
--- yscale = "log" for AIs far apart. The layout it returns has series = {{label=, x=, y=, hollow=,
--- color=}, ...}: the lines drawn (y the mean AI per batch), then the ridges and the legend rows.
function M.ai_vs_batch(opts)
  local o = options.check("rlx.plot.ai_vs_batch", opts, ai_spec)
  local groups, order, batches, labels, first_point, hollow = {}, {}, {}, {}, {}, {}
  for i, p in ipairs(o.points) do
    if type(p) ~= "table" or type(p.ai) ~= "number" or type(p.batch) ~= "number" then
      errors.raise("rlx.plot.ai_vs_batch", ("points[%d] needs numbers 'ai' and 'batch'"):format(i))
    end
    if o.model == nil or p.model == o.model then
      local parts = {}
      for _, f in ipairs(o.by) do parts[#parts + 1] = tostring(p[f]) end
      local k = table.concat(parts, " ")
      if not groups[k] then groups[k] = {}; order[#order + 1] = k; first_point[k] = p; hollow[k] = {} end
      local g = groups[k]
      g[p.batch] = g[p.batch] or {}
      table.insert(g[p.batch], p.ai)
      -- A batch is hollow when every point averaged into it is (an estimate).
      hollow[k][p.batch] = (hollow[k][p.batch] ~= false) and p.hollow == true
      batches[p.batch] = true
      if type(p.label) == "string" and p.label ~= "" then
        labels[k] = labels[k] or {}
        labels[k][p.batch] = p.label
      end
    end
  end
  if #order == 0 then
    errors.raise("rlx.plot.ai_vs_batch", "no points" .. (o.model and (" for model '" .. o.model .. "'") or "") ..
      ": check the model name and that the study has roofline points")
  end
  local series, styles, any_hollow, any_filled = {}, line_styles(o, order, first_point), false, false
  for _, k in ipairs(order) do
    local xs = {}
    for b in pairs(groups[k]) do xs[#xs + 1] = b end
    table.sort(xs)
    local ys, marks, hs = {}, {}, {}
    for i, b in ipairs(xs) do
      ys[i] = stats.mean(groups[k][b])
      marks[i] = labels[k] and labels[k][b] or ""
      hs[i] = hollow[k][b]
      if hs[i] then any_hollow = true else any_filled = true end
    end
    series[#series + 1] = {label = k, x = xs, y = ys, labels = labels[k] and marks or nil, hollow = hs,
      color = styles and styles[k].color, marker = styles and styles[k].marker}
  end
  local ticks = {}
  for b in pairs(batches) do ticks[#ticks + 1] = b end
  table.sort(ticks)
  -- Each ridge ({label=, ai=}) as a dashed line across the batch sizes, in its lines' colour (else
  -- grey): a point below it is memory-bound.
  for i, r in ipairs(o.ridges or {}) do
    if type(r) ~= "table" or type(r.ai) ~= "number" or r.ai ~= r.ai or r.ai <= 0 then
      errors.raise("rlx.plot.ai_vs_batch", ("ridges[%d] needs a positive number 'ai' (FLOP/byte)"):format(i))
    end
  end
  local tag_at = ridge_tags(o.ridges or {})
  for _, r in ipairs(o.ridges or {}) do
    local colour = styles and r.key ~= nil and styles.colour_of[tostring(r.key)]
    local tag, at = type(r.tag) == "string" and r.tag or nil, tag_at[r]
    series[#series + 1] = {label = tostring(r.label or ("ridge " .. r.ai)), x = {ticks[1], ticks[#ticks]},
      y = {r.ai, r.ai}, markers = false, dashed = true, color = colour or "#888888",
      labels = tag and (at.side == 2 and {"", tag} or {tag, ""}) or nil, labels_below = at.below or nil}
  end
  for _, row in ipairs(mark_rows(o, any_hollow, any_filled)) do series[#series + 1] = row end
  local n = copy_common(o, {series = series, xticks = ticks, yscale = o.yscale,
    xscale = (#ticks > 1 and ticks[#ticks] / ticks[1] >= 4) and "log" or "linear"})
  n.xlabel = n.xlabel or "Batch size"
  n.ylabel = n.ylabel or "Arithmetic intensity (FLOP/byte)"
  n.title = n.title or ("Arithmetic intensity vs batch" .. (o.model and (": " .. o.model) or ""))
  if n.ymin == nil and o.yscale == "linear" then n.ymin = 0 end
  -- The series drawn come back with the layout: what a caller (a test) reads as the plotted values.
  local info = wrap(core.line(n, "rlx.plot.ai_vs_batch"))
  info.series = series
  return info
end

--- Colour of the PNG pixel (x, y) as "#rrggbb", plus the image width and height.
function M.pixel(path, x, y) return core.pixel(path, x, y) end
--- The palette charts use, in order ("#rrggbb" strings; Okabe-Ito).
function M.palette() return core.palette() end
--- Major ticks of an axis: rlx.plot.ticks{scale = "log", min = 0.1, max = 1000}.
function M.ticks(opts) return core.ticks(opts) end

--- Creates a directory and its parents (for figure directories); errors name the path.
function M.mkdir(path) return core.mkdir(path) end

return M
