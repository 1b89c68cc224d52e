-- rlx.report.lead: the cells every per-configuration table of the report starts with (env, model,
-- precision, batch and the fields the study's rows differ in), the environments' keys, and a list
-- helper. The sections (rlx.report.sections, measured, noise, roofline, analysis, table2) all read
-- them here, so none of them needs another section's module to build its rows.
local md = require("rlx.report.md")
local configs = require("rlx.results.configs")
local M = {}

--- Distinct environment keys of the ok runs (else of all runs), in order.
function M.env_keys(D)
  local seen, out = {}, {}
  for _, r in ipairs(#D.ok > 0 and D.ok or D.runs) do
    if not seen[r.env_key] then seen[r.env_key] = true; out[#out + 1] = r.env_key end
  end
  return out
end

--- A row's leading cells (env, model, precision, batch), then the fields the study's rows differ in.
function M.lead_cells(D, g)
  local cells = {md.esc(g.env_key), md.esc(g.model), md.esc(g.precision), tostring(g.batch)}
  for _, c in ipairs(configs.cells(D.varying or {}, g.runs[1])) do cells[#cells + 1] = md.esc(c) end
  return cells
end

--- Headers and alignments for lead_cells.
function M.lead_headers(D)
  local h, a = {"Env", "Model", "Precision", "Batch"}, {"l", "l", "l", "r"}
  for _, x in ipairs(configs.headers(D.varying or {})) do h[#h + 1] = x; a[#a + 1] = "l" end
  return h, a
end

--- Appends cells to a list (in place) and returns it.
function M.extend(t, more)
  for _, x in ipairs(more) do t[#t + 1] = x end
  return t
end

return M
