-- Two scales of one study in one database (issue 21 item 5): resnet18 fp32 batch 2 swept at input
-- 32 and again at input 48, two repeats each, trained for real on the CPU into one SQLite file. The
-- report must give one row per input, each averaging only its own runs, and the figures one series
-- (A, D) or point (C) per input. Before issue 21 both inputs were averaged into one row with n = 4.
-- Expected cells are computed here from the stored values with this file's own arithmetic and the
-- documented exclusion rule (docs/report.md: a run with stable = 0 is left out unless every run
-- of its row is).
local tmp = os.getenv("RLX_TEST_TMP") or "/tmp"
local dir = tmp .. "/report_scales"
os.execute("rm -rf '" .. dir .. "'")
local s = rlx.study{name = "scales", db = dir .. "/scales.db", label = "cpuenv"}
for _, input in ipairs({32, 48}) do
  s:sweep{models = {"resnet18"}, batch = {2}, precision = {"fp32"}, repeats = 2, iters = 2, warmup = 1,
    input = input, classes = 10, quiet = true}
end
s:store_peaks({dram_gbps = 20, fp32_gflops = 100}, {device = "cpu"})
local out = s:report{dir = dir .. "/out", quiet = true}
local f = assert(io.open(out.markdown))
local md = f:read("*a")
f:close()

local function check(what, ok, detail)
  print((ok and "ok\t" or "FAIL\t") .. what .. (ok and "" or ("\t" .. tostring(detail))))
end
local function has(what, text) check(what, md:find(text, 1, true) ~= nil, text) end

-- The runs of each input, as stored (the result echoes the input rlx.train used).
local runs = {}
for _, r in ipairs(s:runs{}) do
  local input = r.result.input
  runs[input] = runs[input] or {}
  table.insert(runs[input], r)
end
check("4 runs, 2 per input", #runs[32] == 2 and #runs[48] == 2, #s:runs{})

-- Mean and sample SD of the runs the rule keeps (steady and not contended, else all of them); the
-- cell as the report formats it (3 significant digits for the mean, the SD to the same decimals).
local function usable(r) return r.stable ~= 0 and r.contended ~= 1 end
local function kept(rs)
  local k = {}
  for _, r in ipairs(rs) do if usable(r) then k[#k + 1] = r end end
  return #k > 0 and k or rs
end
local function cell(xs)
  local n, sum = #xs, 0
  for _, x in ipairs(xs) do sum = sum + x end
  local m = sum / n
  local dec = math.max(0, 2 - math.floor(math.log10(m)))
  if n < 2 then return string.format("%." .. dec .. "f", m), m, n end
  local ss = 0
  for _, x in ipairs(xs) do ss = ss + (x - m) ^ 2 end
  return string.format("%." .. dec .. "f ± %." .. dec .. "f", m, math.sqrt(ss / (n - 1))), m, n
end
local expect = {}
for _, input in ipairs({32, 48}) do
  local k = kept(runs[input])
  local ips = {}
  for i, r in ipairs(k) do ips[i] = r.images_per_s end
  local c, m, n = cell(ips)
  local steady = 0
  for _, r in ipairs(runs[input]) do if usable(r) then steady = steady + 1 end end
  -- Every run unsteady or contended: all kept, the values marked.
  expect[input] = {cell = c, mean = m, n = n, mark = steady == 0 and " †" or ""}
  -- §4.1 (Appendix F.2): Env, Model, Precision, Batch, Input (the field the rows differ in), n, Images/s.
  local row = string.format("| cpuenv | resnet18 | fp32 | 2 | %d | %d | %s%s |", input, n, c, expect[input].mark)
  local count = select(2, md:gsub(row:gsub("%p", "%%%0"), ""))
  check("4.1 row at input " .. input, count == 1, row .. " found " .. count .. " times")
  -- Table 2's n says how many of the row's runs it averages (issue 30): "2 of 2 †" when every run was
  -- flagged, "1 of 2 (the highest)" when one was left out, else "2".
  local ncell = tostring(n)
  if steady == 0 then ncell = string.format("%d of %d †", n, #runs[input])
  elseif n < #runs[input] then
    local other = runs[input][1] == k[1] and runs[input][2] or runs[input][1]
    ncell = string.format("%d of %d (the %s)", n, #runs[input], k[1].images_per_s > other.images_per_s and "highest"
      or "lowest")
  end
  has("Table 2 row at input " .. input, string.format("| cpuenv | resnet18 | fp32 | 2 | %d | %s | %s%s |", input, ncell,
    c, expect[input].mark))
  expect[input].label = steady == 0 and "†" or (n < #runs[input] and ("n=" .. n .. "/" .. #runs[input])) or ""
end
-- The precision the runs reached (issue 30): each run's ci_rel, lowest-highest and the median, as
-- a percentage with one decimal (two below 1 %).
local function pc(x) return string.format(x < 0.01 and "%.2f" or "%.1f", x * 100) end
local function reached(rs)
  local xs = {}
  for _, r in ipairs(rs) do xs[#xs + 1] = r.ci_rel end
  table.sort(xs)
  local med = #xs % 2 == 1 and xs[(#xs + 1) / 2] or (xs[#xs / 2] + xs[#xs / 2 + 1]) / 2
  return xs[1], xs[#xs], med
end
-- No row mixes the inputs: no row without an Input cell, none with n = 4.
check("no mixed row", not md:find("| cpuenv | resnet18 | fp32 | 2 | 4 |", 1, true))
-- Table 1b says which input each row is.
has("Table 1b input 32", "| resnet18 | fp32 | 2 | 32 |")
has("Table 1b input 48", "| resnet18 | fp32 | 2 | 48 |")
-- The run matrix: one row per scale, with the protocol read from the runs.
for _, input in ipairs({32, 48}) do
  local lo, hi, med = reached(runs[input])
  has("run matrix " .. input, string.format("| cpuenv | cpu | %dx%d synthetic | resnet18 | fp32 | 2 | 1 / 2 | ±%s%s %% " ..
    "(median ±%s %%) | 2 | interleaved | 2 / 0 |", input, input, pc(lo), hi > lo and ("-" .. pc(hi)) or "", pc(med)))
end
-- §8 states both scales: (224/32)² = 49, (224/48)² = 21.78.
has("limitations 32", "- Scale: 32x32 synthetic images (2 runs). That is 1/49 of the seed's 224x224 pixels")
has("limitations 48", "- Scale: 48x48 synthetic images (2 runs). That is 1/21.8 of the seed's 224x224 pixels")
local all4 = {}
for _, input in ipairs({32, 48}) do for _, r in ipairs(runs[input]) do all4[#all4 + 1] = r end end
local lo4, hi4, med4 = reached(all4)
has("limitations protocol", string.format("- Protocol: 1 warm-up + 2 timed iterations, 95 %% CI reached ±%s-%s %% " ..
  "(median ±%s %%).", pc(lo4), pc(hi4), pc(med4)))
-- Footnotes name the input.
has("footnote 32", "cpuenv, resnet18, fp32, batch 2, input 32x32: ")
has("footnote 48", "cpuenv, resnet18, fp32, batch 2, input 48x48: ")

-- The figures, as composed (the options each figure was drawn with).
local fig = s:figures{dir = dir .. "/fig", quiet = true}
local by = {}
for _, x in ipairs(fig.files) do by[x.figure] = by[x.figure] or {}; table.insert(by[x.figure], x) end
local A = by.A[1].plot
check("A: two series", #A.series == 2, #A.series)
for i, input in ipairs({32, 48}) do
  local sr = A.series[i]
  -- The mark is the point's, not the series' (issue 34).
  check("A: series " .. input, sr.label == "resnet18 fp32 " .. input .. "px" and sr.labels[1] == expect[input].label and
    sr.x[1] == 2 and sr.n[1] == expect[input].n and math.abs(sr.y[1] - expect[input].mean) < 1e-9,
    sr.label .. " [" .. tostring(sr.labels[1]) .. "] n=" .. tostring(sr.n[1]) .. " y=" .. tostring(sr.y[1]))
end
check("A: subtitle states the scale", A.subtitle:find("32x32 and 48x48 synthetic, 1 warm-up + 2 timed iters", 1, true)
  ~= nil, A.subtitle)
local C = by.C[1].plot
check("C: a point per input", #C.points == 2 and C.points[1].label:find("^bs2 32px") ~= nil and
  C.points[2].label:find("^bs2 48px") ~= nil, #C.points)
local D = by.D[1].plot
check("D: series by input", table.concat(D.by, ",") == "env,precision,config" and D.points[1].config == "32px" and
  D.points[#D.points].config == "48px", table.concat(D.by, ","))
-- One environment: no Figure B (it compares one workload across environments; issue 34), and why.
check("B: not drawn, said why", by.B == nil and (fig.warnings[1] or ""):find("one environment (cpuenv)", 1, true) ~= nil,
  fig.warnings[1])
-- The report's own copies carry the scale too (it draws them the same way).
check("report's figures", #out.figures == #fig.files, #out.figures)

-- The footnote's command lists exactly its row's runs (--input), and rlx runs --summary gives one
-- row per input too.
local exe = require("rlx.slurm._array").executable()
local function run(cmdline)
  local p = assert(io.popen(cmdline .. " 2>&1"))
  local t = p:read("*a")
  p:close()
  return t
end
local cmd48 = md:match("input 48x48: [^\n]-Show them: `([^`]+)`")
local listed = run("'" .. exe .. "' " .. cmd48:gsub("^rlx ", ""))
check("footnote command lists its row's runs", cmd48:find("--input 48", 1, true) ~= nil and
  listed:find("\n2 runs %(2 ok, 0 not ok%)\n$") ~= nil, cmd48 .. "\n" .. listed)
local summary = run("'" .. exe .. "' runs '" .. dir .. "/scales.db' --summary")
local sum_rows = 0
for input in summary:gmatch("\n| cpuenv | resnet18 | fp32 | 2 | (%d+) | %d") do
  sum_rows = sum_rows + 1
  check("summary row at input " .. input, input == "32" or input == "48", summary)
end
check("summary: one row per input", sum_rows == 2 and summary:find("| Batch | Input | n |", 1, true) ~= nil, summary)
