-- rlx.report.knobs: §6.7 of a CUDA study's report (issue 46): for every framework knob the study's
-- runs varied, the speedup of each setting over the knob's baseline with its 95 % CI, per model and
-- batch, from the stored runs. A pair is two rows equal in every configuration field but the knob
-- (rlx.studydb.configs), so no other difference leaks into a knob's speedup.
--
-- A knob is one entry of M.KNOBS (from the option declarations): its name, its baseline setting
-- and how a row reads it. A study varies one by listing its settings in its environment script
-- (e.g. memory_format, tf32 or cudnn_benchmark in experiments/cuda.lua, when the sweep takes it as
-- a dimension); a knob whose runs all share one setting (or that no run records, as cuda_graphs in
-- a database from before it) is "not varied" and has no rows.
local md = require("rlx.report.md")
local compute = require("rlx.report.compute")
local configs = require("rlx.studydb.configs")
local lead = require("rlx.report.lead")
local pairing = require("rlx.report.pairs")
local train_options = require("rlx._train_options")
local M = {}

local function setting(field) return function(g) return configs.of(g.runs[1])[field] end end
local function row_field(field) return function(g) return tostring(g[field]) end end

-- One line per knob: its name, its baseline and the row's setting. The knobs are the options of
-- rlx.train declared as knobs (engine/train/options.cpp, with their baselines), in their order: an
-- option the sweep loops over itself (precision) is a field of the row, the others a configuration
-- field of rlx.studydb.configs.
M.KNOBS = {}
for _, k in ipairs(train_options.knobs()) do
  local matrix = train_options.OPTIONS[k.name].sweep == "matrix"
  M.KNOBS[#M.KNOBS + 1] = {name = k.name, over = k.over, of = matrix and row_field(k.name) or setting(k.name)}
end

-- The CUDA rows keyed by their configuration without the knob, then the knob's setting.
local function by_setting(D, knob)
  local idx, order = {}, {}
  for _, g in ipairs(D.groups) do
    if g.kind == "cuda" then
      local rest = configs.key(g.runs[1], {[knob.name] = true})
      if not idx[rest] then idx[rest] = {}; order[#order + 1] = rest end
      idx[rest][knob.of(g)] = g
    end
  end
  return idx, order
end

--- The pairs of every knob the CUDA rows vary: {knob, setting, base (row at the baseline), row,
--- ta, tb (their throughput), r (row ÷ base: rlx.stats.ratio_ci95)}, in the knobs' order.
function M.pairs(D)
  local out = {}
  for _, knob in ipairs(M.KNOBS) do
    local idx, order = by_setting(D, knob)
    for _, rest in ipairs(order) do
      local base = idx[rest][knob.over]
      if base then
        local settings = {}
        for s in pairs(idx[rest]) do if s ~= knob.over then settings[#settings + 1] = s end end
        table.sort(settings)
        for _, s in ipairs(settings) do
          local g = idx[rest][s]
          local ta, tb = compute.throughput(g), compute.throughput(base)
          local r = pairing.ratio(ta.values, tb.values)
          if r then out[#out + 1] = {knob = knob, setting = s, base = base, row = g, ta = ta, tb = tb, r = r} end
        end
      end
    end
  end
  return out
end

--- The knobs the CUDA rows of D vary within a configuration (a pair to compare: names, in
--- M.KNOBS' order), those they do not, and whether D has CUDA rows at all.
function M.varied(D)
  local cuda, has = false, {}
  for _, g in ipairs(D.groups) do cuda = cuda or g.kind == "cuda" end
  for _, p in ipairs(M.pairs(D)) do has[p.knob.name] = true end
  local varied, fixed = {}, {}
  for _, knob in ipairs(M.KNOBS) do table.insert(has[knob.name] and varied or fixed, knob.name) end
  return varied, fixed, cuda
end

-- "1 (n=1)" for a side resting on one run.
local function n_cell(n) return n == 1 and "1 (n=1)" or tostring(n) end

--- §6.7: the knobs' speedups with their CIs (CUDA studies only; nothing for a study with no CUDA run).
function M.section(ctx)
  local D, doc = ctx.D, ctx.doc
  local varied, not_varied, cuda = M.varied(D)
  if not cuda then return end
  doc:para("### 6.7 Framework knobs (CUDA)")
  local found = M.pairs(D)
  if #found == 0 then
    doc:para("The CUDA runs vary no framework knob against its baseline (" .. table.concat(not_varied, ", ") ..
      " each took one setting per configuration): no knob speedups. List a knob's settings in the environment " ..
      "script to measure it (docs/report.md, \"Framework knobs\").")
    return
  end
  local rows = {}
  for _, p in ipairs(found) do
    local x, q = pairing.ratio_parts(p.r)
    local cells = {md.esc(p.knob.name), md.esc(p.setting .. " vs " .. p.knob.over), md.esc(p.row.env_key),
      md.esc(p.row.model), tostring(p.row.batch)}
    if p.knob.name ~= "precision" then cells[#cells + 1] = md.esc(p.row.precision) end
    if p.knob.name == "precision" then cells[#cells + 1] = "-" end
    lead.extend(cells, {md.sig(p.tb.mean, 3), md.sig(p.ta.mean, 3), x .. (q ~= "" and (" (" .. q .. ")") or ""),
      n_cell(p.r.n_a) .. " + " .. n_cell(p.r.n_b), ctx.ref(p.base) .. " " .. ctx.ref(p.row)})
    rows[#rows + 1] = cells
  end
  doc:para("Speedup of each setting over the knob's baseline = its mean images/s ÷ the baseline's, on two rows " ..
    "equal in every other configuration field, with the 95 % CI of the ratio (as §6.1; Appendix C). Knobs " ..
    "varied: " .. table.concat(varied, ", ") .. (#not_varied > 0 and ("; not varied (one setting per " ..
    "configuration, or not recorded): " .. table.concat(not_varied, ", ")) or "") .. ":")
  doc:para(md.table({"Knob", "Setting", "Env", "Model", "Batch", "Precision", "Baseline images/s", "images/s",
    "Speedup", "n", "Runs"}, rows, {"l", "l", "l", "l", "r", "l", "r", "r", "r", "r", "l"}))
end

return M
