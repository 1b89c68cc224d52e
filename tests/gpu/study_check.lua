-- tests/gpu/study_check.lua: checks what `rlx run experiments/all.lua` left (tests/gpu/study_cuda.sh).
--   rlx run tests/gpu/study_check.lua --set db=PATH --set figures=DIR --set kind=cuda [--set repeats=N]
--     [--set batch=64,128] [--set precision=fp32,amp] [--set report=PATH] [--set dry=true]
-- Opens the database read-only (no environment row is added) and prints PASS/FAIL lines; with
-- dry=true (the CPU dry run, which trains nothing) the checks print SKIP instead of failing.
local P = rlx.params or {}
local dry = P.dry == true
local kind = P.kind or "cuda"
local function check(ok, what, detail)
  local tag = ok and "PASS" or (dry and "SKIP (dry run)" or "FAIL")
  print(string.format("%s %s%s", tag, what, detail ~= nil and ("  (" .. tostring(detail) .. ")") or ""))
  return ok
end

local here = (debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "tests/gpu") .. "/../../experiments"
local M = dofile(here .. "/matrix.lua")
-- The batch sizes and precisions of the kind's environment script (experiments/cpu.lua, cuda.lua).
local E = dofile(here .. "/" .. kind .. ".lua")
local smoke = M.scale.smoke
local repeats = P.repeats or smoke.repeats
local function list(v, default)
  if v == nil then return default end
  local out = {}
  for x in tostring(v):gmatch("[^,]+") do out[#out + 1] = x end
  return out
end
local batches, precisions = list(P.batch, E.batch), list(P.precision, E.precision)
local expected = #M.models * #batches * #precisions * repeats

local okopen, db = pcall(rlx.db.open, P.db, {readonly = true})
if not check(okopen, "study database " .. tostring(P.db), not okopen and db or nil) then return end
local function n(sql, ...)
  local r = db:first(sql, ...)
  return r and r.n or 0
end
local total = n("SELECT count(*) AS n FROM runs")
local ok = n("SELECT count(*) AS n FROM runs WHERE status = 'ok'")
check(ok == expected and total == expected,
  string.format("%d of %d runs stored ok (%s: %d models x %d batches x %d precisions x %d repeats)",
  ok, expected, kind, #M.models, #batches, #precisions, repeats), total ~= ok and (total - ok) .. " not ok" or nil)
for _, r in ipairs(db:query("SELECT label, status, error FROM runs WHERE status != 'ok' ORDER BY label LIMIT 8")) do
  print(string.format("  %s %s: %s", r.status, r.label, tostring(r.error):sub(1, 140)))
end
local devs = n("SELECT count(*) AS n FROM runs WHERE status = 'ok' AND device LIKE ?", kind .. "%")
check(devs == ok and ok > 0, "ok runs ran on " .. kind, devs)
local amp = n("SELECT count(*) AS n FROM runs WHERE status = 'ok' AND precision = 'amp'")
if kind == "cuda" then check(amp > 0, "amp runs ok", amp) end
for _, p in ipairs(precisions) do
  if p ~= "fp32" and p ~= "amp" then
    check(n("SELECT count(*) AS n FROM runs WHERE status = 'ok' AND precision = ?", p) > 0, p .. " runs ok")
  end
end
local counted = n("SELECT count(DISTINCT run_id) AS n FROM counters WHERE source = 'cupti'")
check(counted == ok and ok > 0, "ok runs with CUPTI counters stored", counted .. " of " .. ok)
local measured = n("SELECT count(DISTINCT run_id) AS n FROM roofline_points WHERE source = 'measured'")
check(measured == ok and ok > 0, "ok runs with measured roofline points", measured .. " of " .. ok)
local peaks = n("SELECT count(*) AS n FROM peaks WHERE device = ?", kind)
check(peaks > 0, kind .. " peaks stored", peaks)
-- A few measured points, to eyeball: arithmetic intensity and GFLOP/s of one model per precision.
for _, r in ipairs(db:query([[SELECT r.model, r.precision, r.batch, p.level, p.ai, p.gflops, p.attainable_gflops, p.bound
    FROM roofline_points p JOIN runs r ON r.id = p.run_id WHERE p.source = 'measured' AND p.level = 'dram'
    AND r.repeat = 1 ORDER BY r.model, r.precision, r.batch LIMIT 6]])) do
  print(string.format("  point %-12s %-4s bs%-3d %-4s AI %7.2f FLOP/B  %9.1f GFLOP/s  roof %s  %s", r.model, r.precision,
    r.batch, r.level, r.ai or 0, r.gflops or 0, r.attainable_gflops and string.format("%.0f", r.attainable_gflops) or "-",
    r.bound or ""))
end
db:close()

-- Figures: the study's six (throughput per environment, variance, roofline per environment, AI vs
-- batch per model), as PNG files.
local files = {}
local p = io.popen("ls -1 '" .. tostring(P.figures) .. "' 2>/dev/null")
if p then
  for line in p:lines() do
    if line:match("%.png$") or line:match("%.svg$") or line:match("%.pdf$") then files[#files + 1] = line end
  end
  p:close()
end
local want = 3 + #M.models
check(#files >= want, string.format("at least %d figures in %s", want, tostring(P.figures)), #files)

-- The report a grader reads: AMP rows, precision speedups with CIs, measured roofline points.
if P.report then
  local f = io.open(P.report)
  local text = f and f:read("*a") or ""
  if f then f:close() end
  if check(#text > 0, "report " .. P.report .. " written", #text .. " bytes") then
    local speed = text:match("Speedup = mean images/s[^\n]*\n(.-)\n\n") or
      text:match("Speedup = mean images/s.-\n\n(.-)\n\n") or ""
    local amp_rows, ci_rows = 0, 0
    for line in speed:gmatch("[^\n]+") do
      if line:match("|%s*amp%s*|") or line:match("|%s*bf16%s*|") then
        amp_rows = amp_rows + 1
        if line:find("95% CI [", 1, true) then ci_rows = ci_rows + 1 end
      end
    end
    check(amp_rows > 0, "report: precision speedup rows (amp/bf16 over fp32)", amp_rows)
    -- A row whose configuration kept one steady run has no CI (the report prints the ratio alone).
    check(ci_rows > 0, "report: precision speedups with 95 % CIs", ci_rows .. " of " .. amp_rows .. " rows")
    check(not text:find("no AMP rows", 1, true), "report: AMP rows (no 'no AMP rows')")
    check(text:find("measured", 1, true) ~= nil and not text:find("estimated roofline points only", 1, true),
      "report: measured roofline points")
  end
end