-- rlx.report.layers: Appendix E of report.md, the heaviest layers of each model by training FLOPs
-- and by memory traffic, from rlx.model.summary's per-layer complexity (docs/complexity.md) at
-- the configuration the study ran (model, input, classes, precision; the smallest batch run).
local md = require("rlx.report.md")
local M = {}

M.TOP = 5

local function config_of(r) return type(r.config) == "table" and r.config or {} end

-- One entry per model, input, classes and precision of the ok runs, with the smallest batch.
local function configurations(D)
  local out, index = {}, {}
  for _, r in ipairs(D.ok) do
    local c = config_of(r)
    local key = table.concat({tostring(r.model), tostring(c.input), tostring(c.classes), tostring(r.precision)}, "|")
    local e = index[key]
    if not e then
      e = {model = r.model, input = c.input, classes = c.classes, precision = r.precision, batch = r.batch}
      index[key] = e
      out[#out + 1] = e
    elseif (r.batch or 0) < (e.batch or 0) then
      e.batch = r.batch
    end
  end
  return out
end

local function train_flops(l) return (l.flops or 0) + (l.elementwise_flops or 0) + (l.backward_flops or 0) end

-- The top layers of `layers` by f, with their share of the total.
local function top(layers, f)
  local sorted, total = {}, 0
  for i, l in ipairs(layers) do sorted[i] = l; total = total + f(l) end
  table.sort(sorted, function(a, b)
    if f(a) ~= f(b) then return f(a) > f(b) end
    return a.name < b.name
  end)
  local rows = {}
  for i = 1, math.min(M.TOP, #sorted) do
    local l = sorted[i]
    rows[i] = {tostring(i), md.code(l.name), md.esc(l.kind), table.concat(l.output or {}, "x"), f(l), total}
  end
  return rows
end

local function flops_table(s)
  local rows = {}
  for _, r in ipairs(top(s.layers, train_flops)) do
    rows[#rows + 1] = {r[1], r[2], r[3], r[4], md.sig(r[5] / 1e9, 4), md.pct(r[5] / r[6], 1)}
  end
  return md.table({"#", "Layer", "Kind", "Output", "Training GFLOPs / image", "Share"}, rows,
    {"r", "l", "l", "l", "r", "r"})
end

local function bytes_table(s)
  local rows = {}
  for _, r in ipairs(top(s.layers, function(l) return l.traffic_bytes or 0 end)) do
    rows[#rows + 1] = {r[1], r[2], r[3], r[4], md.sig(r[5] / 1e6, 4), md.pct(r[5] / r[6], 1)}
  end
  return md.table({"#", "Layer", "Kind", "Output", "Traffic / iteration (MB)", "Share"}, rows,
    {"r", "l", "l", "l", "r", "r"})
end

--- Appends Appendix E to ctx.doc.
function M.appendix(ctx)
  local doc = ctx.doc
  doc:para("### E. Top layers by FLOPs and bytes")
  local configs = configurations(ctx.D)
  if #configs == 0 then doc:para("No successful runs: no layers to rank.") return end
  doc:para(string.format("The %d layers of each model with the most training FLOPs per image (forward " ..
    "multiply-accumulates x 2, elementwise and backward) and the most minimum memory traffic per iteration " ..
    "(forward + backward, whole batch), from `rlx.model.summary`'s per-layer complexity (docs/complexity.md); " ..
    "share = of the model's layer total. Residual additions are layers named `.add`.", M.TOP))
  for _, c in ipairs(configs) do
    local ok, s = pcall(rlx.model.summary, {model = c.model, batch = c.batch, input = c.input, classes = c.classes,
      precision = c.precision, layers = true})
    local title = string.format("**%s**, input %s, %s, batch %s", md.esc(c.model), tostring(c.input or 224),
      md.esc(c.precision), tostring(c.batch))
    if ok and type(s) == "table" and type(s.layers) == "table" and #s.layers > 0 then
      doc:para(title .. string.format(" (`rlx models %s --batch %s --input %s --classes %s --precision %s --layers` " ..
        "lists all %d):", c.model, tostring(c.batch), tostring(s.input), tostring(s.classes), c.precision, #s.layers))
      doc:para(flops_table(s))
      doc:para(bytes_table(s))
    else
      doc:para(title .. ": no per-layer complexity (" .. md.esc(ok and "no layers" or rlx.errors.text(
        rlx.errors.pass_exits(s))) .. ").")
    end
  end
end

return M
