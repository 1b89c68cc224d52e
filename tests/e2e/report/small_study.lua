-- A report from a small real study (issue 13): resnet18 at 32x32, batch 2, fp32 and bf16, two
-- repeats, trained for real on the CPU; peaks stored by hand so the roofs are known. The expected
-- cells are computed here from the stored values with this file's own arithmetic (not rlx.stats,
-- not the report's code) and must appear verbatim in report.md.
local tmp = os.getenv("RLX_TEST_TMP") or "/tmp"
local dir = tmp .. "/report_small"
os.execute("rm -rf '" .. dir .. "'")
local s = rlx.study{name = "small", db = dir .. "/small.db", label = "cpuenv"}
s:sweep{models = {"resnet18"}, batch = {2}, precision = {"fp32", "bf16"}, repeats = 2, iters = 2, warmup = 1,
  input = 32, classes = 10, quiet = true}
s:store_peaks({dram_gbps = 20, fp32_gflops = 100, gemm_bf16_gflops = 50}, {device = "cpu"})
local out = s:report{dir = dir .. "/out", quiet = true}
local f = assert(io.open(out.markdown))
local md = f:read("*a")
f:close()

local function check(what, text)
  if md:find(text, 1, true) then print("ok\t" .. what) else print("MISSING\t" .. what .. "\t" .. text) end
end
-- mean and sample SD (of one value: the mean alone), the mean to 3 significant digits and the SD to
-- the same decimals
local function sig3(v) return string.format("%." .. math.max(0, 2 - math.floor(math.log10(v))) .. "f", v) end
local function cell(xs)
  local m = xs[2] and (xs[1] + xs[2]) / 2 or xs[1]
  local dec = math.max(0, 2 - math.floor(math.log10(m)))
  if not xs[2] then return string.format("%." .. dec .. "f", m), m end
  local sd = math.sqrt(((xs[1] - m) ^ 2 + (xs[2] - m) ^ 2) / 1)
  return string.format("%." .. dec .. "f ± %." .. dec .. "f", m, sd), m
end

-- Two real repeats of two iterations often fail the steady-state verdict, and under a parallel
-- test run they share their cores (contended). The report leaves an unsteady or contended run out
-- of the means unless both runs of the row are (then both count, marked †; docs/report.md): the
-- expected cells follow that rule.
local ips, steady, points, used = {}, {}, {}, {}
for _, r in ipairs(s:runs{}) do
  ips[r.precision] = ips[r.precision] or {}
  steady[r.precision] = steady[r.precision] or {}
  ips[r.precision][r.run] = r.images_per_s
  steady[r.precision][r.run] = r.stable ~= 0 and r.contended ~= 1
end
local function kept(p)
  local xs, runs = {}, {}
  for n = 1, 2 do if steady[p][n] then xs[#xs + 1] = ips[p][n]; runs[n] = true end end
  if #xs == 0 then return ips[p], {true, true}, " †" end
  return xs, runs, ""
end
local x32, r32, mark32 = kept("fp32")
local x16, _, mark16 = kept("bf16")
used.fp32 = r32
for _, p in ipairs(s:points{level = "dram"}) do
  points[p.label] = p
end
local c32, m32 = cell(x32)
local c16, m16 = cell(x16)
check("fp32 row of 4.1", "| cpuenv | resnet18 | fp32 | 2 | " .. #x32 .. " | " .. c32 .. mark32 .. " |")
check("bf16 row of 4.1", "| cpuenv | resnet18 | bf16 | 2 | " .. #x16 .. " | " .. c16 .. mark16 .. " |")
check("speedup", string.format("| cpuenv | resnet18 | 2 | bf16 | %s | %s | %.2f×", sig3(m32), sig3(m16), m16 / m32))
-- Table 1: 11,181,642 parameters (resnet18 with 10 classes) = 11.18 M; forward MACs per image
-- 37,016,576 = 0.03702 G; training FLOPs per image forward 74,033,152 + elementwise 349,194 +
-- backward 143,583,242 = 217,965,588 = 0.2180 G, 1.47x the seed kit's flops_per_batch_forward x
-- TRAIN_FACTOR = 2 x MACs x 2 = 0.1481 G per image (docs/export-seed.md, "TRAIN_FACTOR"). Params
-- size: 11,181,642 x 4 = 44,726,568 bytes = 44.7 MB = 42.7 MiB (/ 1,048,576).
check("Table 1", "| resnet18 | 32 | 11.18 | 44.7 | 42.7 | 0.03702 | 0.07403 | 0.2180 | 0.1481 | 1.47× |")
-- Roofline of fp32: AI = train_flops / bytes at batch 2 (503,021,028 / 364,402,400 = 1.3804),
-- attained = mean of the used runs' GFLOP/s, roof 1.3804 x 20 GB/s = 27.6 GFLOP/s (memory-bound).
-- The AI is a range (docs/roofline.md, "Estimated points"): the upper traffic model adds, per layer
-- of rlx.model.summary's, a batchnorm's input twice and output once, a conv's or linear's output once
-- when it passes a gradient to its input, and an add's output three times; worked here from the
-- layers and compared with rlx.roofline.traffic_range.
local sm = rlx.model.summary{model = "resnet18", batch = 2, input = 32, classes = 10, precision = "fp32", layers = true}
local extra = 0
for _, l in ipairs(sm.layers) do
  if l.kind == "bn" then extra = extra + 2 * l.input_bytes + l.output_bytes
  elseif (l.kind == "conv" or l.kind == "linear") and l.input_grad then extra = extra + l.output_bytes
  elseif l.kind == "add" then extra = extra + 3 * l.output_bytes end
end
local range = rlx.roofline.traffic_range{model = "resnet18", batch = 2, input = 32, classes = 10, precision = "fp32"}
if range.upper_bytes == sm.bytes + extra and range.min_bytes == 364402400 then print("ok\ttraffic range")
else print("FAIL\ttraffic range", range.upper_bytes, sm.bytes + extra) end
local ai_lo = 503021028 / (sm.bytes + extra)
local g = {}
for _, p in pairs(points) do
  local n = tonumber(p.label:match("_run(%d+)$"))
  if p.label:find("_fp32_") and used.fp32[n] then g[#g + 1] = p.gflops end
end
local att = g[2] and (g[1] + g[2]) / 2 or g[1]
-- n: the runs averaged; a single run is marked (issue 45).
check("roofline fp32", string.format("| cpuenv | resnet18 | fp32 | 2 | %s | estimated | %s–1.38 | %s | 27.6 | memory | " ..
  "%.1f %% |", #x32 == 1 and "1 (n=1)" or tostring(#x32), sig3(ai_lo), sig3(att), att / (503021028 / 364402400 * 20) * 100))
check("no AMP", "No CUDA environment: no AMP rows.")
check("one environment", "One environment (cpuenv): no ratios between environments")
-- The footnote lists the runs averaged, then those left out (issue 34: it listed all of them as
-- "averaged into" the row).
local kept_labels, left_labels = {}, {}
for n = 1, 2 do
  local label = "`cpuenv_resnet18_fp32_bs2_run" .. n .. "`"
  if used.fp32[n] then kept_labels[#kept_labels + 1] = label else left_labels[#left_labels + 1] = label end
end
-- A row whose every run was flagged says what its runs lack: two timed iterations are too few for a
-- steady-state verdict (unjudged), and a parallel test run can make them contended as well.
local lack = {}
for _, r in ipairs(s:runs{precision = "fp32"}) do
  if r.stable == 0 then lack[#lack + 1] = "none long enough to judge" end
  if r.contended == 1 then lack[#lack + 1] = "none uncontended" end
end
local only = lack[1]
for _, l in ipairs(lack) do if l ~= only then only = "every run flagged" end end
local head = mark32 ~= "" and ("averaged, " .. tostring(only) .. " (all kept, marked †): ") or "averaged: "
check("footnote", "[^R1]: cpuenv, resnet18, fp32, batch 2: " .. head .. table.concat(kept_labels, ", ") ..
  (#left_labels > 0 and ("; left out: " .. left_labels[1] .. " (") or "."))
-- One environment: Figures A, C and D (B compares environments).
print("html", out.html:match("[^/]+$"), #out.figures)
