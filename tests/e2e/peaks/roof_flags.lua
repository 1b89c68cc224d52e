-- A point above its own roof is never silent (issue 22): rlx.roofline.suspect names the measurement
-- to suspect, and a study's figure and report flag the point. Numbers worked by hand.
local tmp = os.getenv("RLX_TEST_TMP") or "/tmp"

-- suspect(): compute side. AI 98.7, 98.7 GFLOP/s over a quick FP32 FMA roof of 64.3 with a 21.5 %
-- spread (the issue's machine, roofs then taken from a Prescott GEMM): the peak is the first suspect.
local quick = {device = "cpu", fp32_gflops = 64.3, dram_gbps = 20, quick_mode = 1, repeats = 5,
  spread = {fp32_gflops = 0.215}}
print(rlx.roofline.suspect({ai = 98.7, gflops = 98.7, peak_gflops = 64.3, peak_gbps = 20, compute_field = "fp32_gflops",
  source = "estimated"}, quick).text)
-- Memory side: AI 1, 30 GFLOP/s over a full DRAM peak of 20 GB/s (roof 1 x 20 = 20) with a 2 %
-- spread: the analytic byte count is the first suspect.
local full = {device = "cpu", fp32_gflops = 300, dram_gbps = 20, quick_mode = 0, repeats = 5, spread = {dram_gbps = 0.02}}
local s = rlx.roofline.suspect({ai = 1, gflops = 30, peak_gflops = 300, peak_gbps = 20, compute_field = "fp32_gflops",
  memory_field = "dram_gbps", source = "estimated"}, full)
print(s.roof, s.first)
print(s.second)
-- Below both roofs (AI 2: roof min(2 x 20, 300) = 40 > 20): nil.
print(rlx.roofline.suspect({ai = 2, gflops = 20, peak_gflops = 300, peak_gbps = 20}, full))
-- peak_quality from a measured table (stats) and from stored numbers.
local q = rlx.roofline.peak_quality({stats = {fp32_gflops = {best = 10, median = 9, spread_pct = 12, repeats = 3,
  attempts = 3}}, quick = false, fp32_gflops = 10}, "fp32_gflops")
print(q.best, q.median, q.spread_pct, q.repeats, q.attempts, q.quick, q.noisy)

-- A study whose stored CPU peaks are too low: resnet18 at 32x32, batch 4, 10 classes does
-- train_flops 938952204 and bytes 371029888 per iteration (AI 2.5307). At 100 images/s an
-- iteration takes 0.04 s: 23.47 GFLOP/s, above the FP32 FMA roof of 5 (memory roof 2.5307 x 20 =
-- 50.6 is higher, so the compute roof binds). bf16 at 50 images/s: 11.74 GFLOP/s, above the
-- emulated bf16 roof (the FP32 FMA peak, 5).
local dir = tmp .. "/roof_flags"
os.execute("rm -rf '" .. dir .. "'")
local st = rlx.study{name = "flags", db = dir .. "/f.db", label = "lowroof"}
st:store_peaks({device = "cpu", dram_gbps = 20, fp32_gflops = 5, bf16_gflops = 5, bf16_emulated = 1,
  gemm_fp32_gflops = 4, gemm_bf16_gflops = 3, quick_mode = 1, repeats = 5, fp32_gflops_median = 4.5,
  fp32_gflops_cpu_share = 0.4, gemm_fp32_gflops_cpu_share = 0.98,
  spread = {fp32_gflops = 0.215, bf16_gflops = 0.215, dram_gbps = 0.05}}, {device = "cpu"})
local IPS = {fp32 = 100, bf16 = 50}
st:sweep{models = {"resnet18"}, precision = {"fp32", "bf16"}, batch = {4}, repeats = 1, iters = 5, warmup = 1,
  input = 32, classes = 10, quiet = true, trainer = function(o)
    local v = IPS[o.precision]
    return {ok = true, images_per_s = v, iter_s = {mean = o.batch / v, sd = 0}, seconds = o.iters * o.batch / v,
      device = "cpu", precision = o.precision, batch = o.batch}
  end}
local figs = st:figures{dir = dir .. "/fig", quiet = true}
for _, f in ipairs(figs.files) do
  if f.figure == "C" then
    for _, p in ipairs(f.above_roof) do print("figure", p.precision, p.label, string.format("%.2f", p.gflops)) end
    local flag = "; ! = above its own roof (2 points): suspect fp32_gflops (quick, spread 21.5 %, CPU share 40 %) or " ..
      "the FLOP count; " ..
      "bf16_gflops (quick, spread 21.5 %) or the FLOP count"
    print("subtitle", f.plot.subtitle:find(flag, 1, true) ~= nil)
    -- The GEMM lines name this machine's BLAS (issue 55; whatever it is here: printed as "BLAS"), and
    -- the points (23.47 and 11.74 GFLOP/s) exceed both GEMMs (4 and 3): references, not ceilings.
    local labels = {}
    local blas = require("rlx.figures").blas_short(rlx.env.capture(), "cpu")
    for _, c in ipairs(f.plot.ceilings) do
      local label = blas and c.label:gsub(" on " .. blas:gsub("%p", "%%%0"), " on BLAS") or c.label
      labels[#labels + 1] = label .. "=" .. c.gflops .. (c.secondary and "s" or "")
    end
    print("ceilings", table.concat(labels, ", "))
  end
end
local out = st:report{dir = dir .. "/out", quiet = true}
local fh = assert(io.open(out.markdown))
local md = fh:read("*a")
fh:close()
local function has(what, text)
  print(md:find(text, 1, true) and "ok" or "MISSING", what, not md:find(text, 1, true) and text or "")
end
-- Peaks table: best 5, median 4.5 (stored as fp32_gflops_median), spread 0.215 -> 21.5 % > 10 %,
-- CPU share 0.4 -> 40 % < 75 %: both marked; the GEMM's 98 % is not.
has("fp32 peak row", "| lowroof | cpu | fp32_gflops | fp32 roof | - | 5.000 | 4.500 | 21.5 % ⚠ | 5 | quick | 40 % ⚠ | - |")
-- An emulated bf16 peak is the FP32 FMA figure itself (bf16_emulated = 1): the row says so.
has("bf16 peak row", "| lowroof | cpu | bf16_gflops (emulated: the fp32_gflops figure, not measured apart) | " ..
  "bf16 roof (emulated) | - | 5.000 | - | 21.5 % ⚠ | 5 | quick | - | - |")
has("bf16 GEMM row", "| lowroof | cpu | gemm_bf16_gflops (emulated: bf16 converted to fp32) |")
-- The points exceed the fp32 GEMM (23.47 > 4): it is a reference, not a ceiling (issue 55).
has("gemm row", "| lowroof | cpu | gemm_fp32_gflops | reference (fp32): training points exceed it, not a ceiling | - | " ..
  "4.000 | - | - | 5 | quick | 98 % | - |")
-- Both GEMMs are exceeded (bf16 11.74 > 3, fp32 23.47 > 4), named with this machine's BLAS when its
-- record names one (rlx.report.compute.blas_words), fields in name order.
local blas_words = require("rlx.report.compute").blas_words(rlx.env.capture())
local on = blas_words and (" measured on " .. require("rlx.report.md").esc(blas_words)) or ""
has("gemm reference", "⚠ **A GEMM line the training points exceed is a reference, not a ceiling**: lowroof: 1 point " ..
  "reaches up to 11.74 GFLOP/s, above the GEMM BF16 (emulated) of 3.000 GFLOP/s (`gemm_bf16_gflops`)" .. on ..
  "; lowroof: 1 point reaches up to 23.47 GFLOP/s, above the GEMM FP32 of 4.000 GFLOP/s (`gemm_fp32_gflops`)" .. on)
has("dram row", "| lowroof | cpu | dram_gbps | memory roof | - | 20.00 | - | 5.0 % | 5 | quick | - | - |")
has("noisy", "⚠ **Noisy or contended peaks**: lowroof (cpu) `fp32_gflops`: spread 21.5 % over 5 repeats, its threads " ..
  "got 40 % of their cores, quick; lowroof (cpu) `bf16_gflops`: spread 21.5 % over 5 repeats, quick.")
-- The BLAS kernel line: the environment record's reason (whatever this machine's OpenBLAS chose).
has("blas kernel", "**BLAS kernel** (LibTorch's fp32 matrix products: the GEMM fp32 ceiling, fully connected " ..
  "layers): lowroof: " .. require("rlx.report.md").esc((rlx.env.capture().blas or {reason = "?"}).reason) .. ".")
has("emulated", "lowroof: no bf16 arithmetic on this CPU (no avx512_bf16, no AMX)")
has("count", "⚠ **2 points above their own roof**")
has("fp32 suspect", "- lowroof, resnet18, fp32, batch 4: above its compute roof (23.47 GFLOP/s against a roof of 5): suspect " ..
  "fp32_gflops (FP32 FMA, measured quick, best of 5, spread 21.5 %, threads got 40 % of their cores), else the FLOP " ..
  "count (analytic, rlx.model.summary)")
has("bf16 suspect", "- lowroof, resnet18, bf16, batch 4: above its compute roof (11.74 GFLOP/s against a roof of 5): suspect " ..
  "bf16_gflops (BF16 emulated (FP32 FMA), measured quick, best of 5, spread 21.5 %)")
-- The points table: ridge 5 / 20 = 0.25 < AI 2.51-2.53 (the estimate's range, upper traffic model to
-- minimum traffic: docs/roofline.md): compute-bound; 23.47 / 5 = 469.5 % of the roof, flagged; one
-- run (n=1); the roof by name, its value in the peaks table.
has("points row", "| lowroof | resnet18 | fp32 | 4 | 1 (n=1) | estimated | 2.51–2.53 | 23.5 | 5.00 | compute | " ..
  "469.5 % ⚠ | 469.5 % | FP32 FMA | 0.250 |")
st:close()
