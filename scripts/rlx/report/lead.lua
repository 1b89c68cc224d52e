-- rlx.report.lead: the cells every per-configuration table of the report starts with (env, model,
-- precision, batch and the fields the study's rows differ in), the environments' keys, and a list
-- helper. The sections (rlx.report.sections, measured, noise, roofline, analysis, table2) all read
-- them here, so none of them needs another section's module to build its rows.
local md = require("rlx.report.md")
local configs = require("rlx.studydb.configs")
local M = {}

--- Distinct environment keys of the ok runs (else of all runs), in order.
function M.env_keys(D)
  local seen, out = {}, {}
  for _, r in ipairs(#D.ok > 0 and D.ok or D.runs) do
    if not seen[r.env_key] then seen[r.env_key] = true; out[#out + 1] = r.env_key end
  end
  return out
end

--- Seed 001's title with the environments named, the default title of a report: "Performance
--- Modeling & Roofline Analysis across epyc-2c (AMD EPYC CPU) and h200 (NVIDIA H200)".
function M.default_title(D)
  local names = {}
  for _, key in ipairs(M.env_keys(D)) do
    local run
    for _, r in ipairs(#D.ok > 0 and D.ok or D.runs) do if r.env_key == key then run = r; break end end
    local what = run and run.kind == "cuda" and run.gpu_name or (run and run.cpu_model and (run.cpu_model .. " CPU"))
    if run and run.kind == "mps" then what = "Apple GPU (MPS)" end
    names[#names + 1] = key .. (what and what ~= "" and (" (" .. what .. ")") or "")
  end
  local list = #names <= 2 and table.concat(names, " and ") or
    (table.concat(names, ", ", 1, #names - 1) .. " and " .. names[#names])
  return "Performance Modeling and Roofline Analysis" .. (#names > 0 and (" across " .. list) or "")
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
