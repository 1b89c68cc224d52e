-- Issue 55 point 6: reference lines that say what they are, on copies of the real fixtures
-- (tests/fixtures/studies). Usage: rlx run figures.lua --set zen5=PATH --set h200=PATH --set
-- epyc=PATH --set out=DIR. Every value is worked out by hand from the stored rows:
--
-- Peaks (table peaks): Zen 5 FP32 FMA 491.4019, GEMM FP32 213.2452 GFLOP/s, DRAM 79.1281 GB/s;
-- old EPYC (Zen 3) FP32 FMA 200.2098, GEMM FP32 152.2705, DRAM 41.8967; H200 GEMM FP32 51213.75,
-- GEMM FP16 708410.2, DRAM 4242.429. Ridges (roof / DRAM): Zen 5 fp32 491.4019 / 79.1281 = 6.2103;
-- Zen 3 200.2098 / 41.8967 = 4.7786; H200 fp32 51213.75 / 4242.429 = 12.072, fp16 708410.2 /
-- 4242.429 = 166.98. 6.2103 / 4.7786 = 1.30 < 1.6: the two EPYC ridges are close, so the lower one's
-- tag goes under its line; 12.072 / 6.2103 = 1.94: the Zen 5's and the H200's are not.
--
-- Environment records (environments.info.blas): Zen 5 OpenBLAS, core Haswell, set_by user
-- (OPENBLAS_CORETYPE=Haswell in its environment), openmp; Zen 3 OpenBLAS, core Zen, OpenBLAS's own.
-- The Zen 5's fp32 ResNet-50 and VGG-16 points (6, up to VGG-16 batch 64's 388.9 GFLOP/s) lie above
-- its GEMM's 213.2: that line is a reference. The Zen 3's points (at most 110) lie under its 152.3:
-- a 2nd ceiling.
--
-- Figure B (ResNet-50 fp32 batch 64, runs.images_per_s): Zen 5 11.2407, 12.1330, 13.2015; median
-- 12.1330; 11.2407 / 12.1330 - 1 = -7.354 %, 13.2015 / 12.1330 - 1 = +8.807 %; mean 36.5752 / 3 =
-- 12.1917, SD sqrt((0.9510² + 0.0587² + 1.0098²) / 2) = 0.9817, CV 8.05 %. Zen 3 3.49012, 3.84212,
-- 4.32212: median 3.84212, -9.162 %, +12.494 %. H200 838.161, one run.
local P = rlx.params.declare{zen5 = {type = "string", required = true}, h200 = {type = "string", required = true},
  epyc = {type = "string", required = true}, out = {type = "string", required = true}}
local failed, passed = 0, 0
local function check(what, cond, detail)
  if cond then passed = passed + 1 else failed = failed + 1; print("FAIL\t" .. what .. "\t" .. tostring(detail)) end
end
local function near(x, want, tol) return type(x) == "number" and math.abs(x - want) <= tol end

-- The report of the first database with the others: its figures (rlx.figures' entries) and text.
local function report(dir, first, ...)
  local db = rlx.db.open(first, {readonly = true})
  local out = rlx.report.write(db, {dir = dir, with = {...}, html = false, quiet = true})
  db:close()
  local fh = assert(io.open(out.markdown))
  local md = fh:read("*a")
  fh:close()
  local by = {}
  for _, f in ipairs(out.figures) do by[f.figure .. ":" .. (f.env or f.model or "")] = f end
  return by, md
end
local function has(md, what, text) check(what, md:find(text, 1, true) ~= nil, text) end
local function series_named(f, label)
  for _, s in ipairs(f.series) do if s.label == label then return s end end
end
local function all(list, want)
  for _, v in ipairs(list or {}) do if v ~= want then return false end end
  return list ~= nil and #list > 0
end

-- 1. The Zen 5 with the H200.
local F, md = report(P.out .. "/zh", P.zen5, P.h200)
-- Figure C, Zen 5: the roof, then the GEMM as a reference named with its BLAS and kernel.
local C = F["C:epyc-2c"]
local ceil = C.plot.ceilings
check("C roof", #ceil == 2 and ceil[1].label == "FP32 FMA" and near(ceil[1].gflops, 491.4019, 1e-3) and
  not ceil[1].reference, ceil[1] and ceil[1].label)
check("C GEMM reference", ceil[2].label == "GEMM FP32 on OpenBLAS Haswell kernels (reference: training points exceed it)"
  and near(ceil[2].gflops, 213.2452, 1e-3) and ceil[2].reference == true and ceil[2].secondary == true, ceil[2].label)
local above, top = 0, 0
for _, p in ipairs(C.plot.points) do
  if p.gflops > 213.2452 then above = above + 1 end
  top = math.max(top, p.gflops)
end
check("C points above the GEMM", above == 6 and near(top, 388.9, 0.05), above .. " " .. top)
check("C subtitle", C.plot.subtitle:find("dash-dot, references (no bound is judged against them): GEMM FP32 measured " ..
  "on OpenBLAS (openmp build, Haswell kernels; OPENBLAS_CORETYPE=Haswell set in the environment), which training " ..
  "points exceed: one library's kernel, not the CPU's limit", 1, true) ~= nil, C.plot.subtitle)
-- Figure C, H200: the datasheet figures are references; the measured GEMMs are the roofs.
local H = F["C:h200"].plot.ceilings
local hc = {}
for _, c in ipairs(H) do hc[#hc + 1] = c.label .. "=" .. c.gflops .. (c.reference and "r" or "") end
check("C h200", table.concat(hc, ", "):gsub("(%d+)%.%d+", "%1") == "GEMM FP16=708410, GEMM FP32=51213, " ..
  "FP16 tensor datasheet (reference)=989500r, FP32 datasheet (reference)=67000r", table.concat(hc, ", "))
-- §5: the reference-line sentence.
has(md, "§5 GEMM reference", "⚠ **A GEMM line the training points exceed is a reference, not a ceiling**: epyc-2c: 6 " ..
  "points reach up to 388.9 GFLOP/s, above the GEMM FP32 of 213.2 GFLOP/s (`gemm_fp32_gflops`) measured on OpenBLAS " ..
  "(openmp build, Haswell kernels; OPENBLAS_CORETYPE=Haswell set in the environment).")
has(md, "§5 drawn as", "Figure C draws it dash-dotted as a reference.")
has(md, "§5 BLAS kernel", "**BLAS kernel** (LibTorch's fp32 matrix products: the GEMM fp32 ceiling, fully connected " ..
  "layers): epyc-2c: Haswell (OPENBLAS_CORETYPE=Haswell set by the user; rlx leaves it alone).")

-- Figure D, ResNet-50: colour by environment, marker by precision, hollow = estimated.
local D = F["D:resnet50"]
local e, h32, hamp = series_named(D, "epyc-2c fp32 channels_last"), series_named(D, "h200 fp32 channels_last"),
  series_named(D, "h200 amp channels_last")
check("D epyc estimated", e and all(e.hollow, true) and e.color == 1 and e.marker == 1, e and e.color)
check("D h200 measured", h32 and all(h32.hollow, false) and h32.color == 2 and h32.marker == 1 and hamp and
  all(hamp.hollow, false) and hamp.color == 2 and hamp.marker == 2, h32 and h32.color)
local r1, r2, r3 = series_named(D, "ridge epyc-2c fp32: 6.21"), series_named(D, "ridge h200 fp32: 12.1"),
  series_named(D, "ridge h200 fp16: 167")
check("D ridges", r1 and r2 and r3 and near(r1.y[1], 6.2103, 1e-3) and near(r2.y[1], 12.072, 1e-3) and
  near(r3.y[1], 166.98, 0.01), r1 and r1.y[1])
check("D ridges' colours", r1.color == 1 and r2.color == 2 and r3.color == 2 and r1.dashed and r2.dashed, r1.color)
check("D ridges' tags", r1.labels[1] == "fp32 ridge 6.21" and r2.labels[1] == "fp32 ridge 12.1" and
  r3.labels[1] == "fp16 ridge 167" and not r1.labels_below and not r2.labels_below, r1.labels[1])
local filled, hollow = series_named(D, "filled: measured (counters)"), series_named(D, "hollow: estimated (analytic)")
check("D legend rows", filled and hollow and filled.hollow == false and hollow.hollow == true and #filled.x == 0,
  tostring(filled))
check("D subtitle", D.plot.subtitle:find("filled: measured by counters; hollow: estimated", 1, true) ~= nil and
  D.plot.subtitle:find("so an estimated AI above a measured one is no environment's effect", 1, true) ~= nil,
  D.plot.subtitle)
has(md, "§5 Figure D", "**Figure D** marks how each AI was obtained: filled, measured by counters (resnet50 fp32 on " ..
  "h200 14.9–16.5; resnet50 amp on h200 58.0–69.7; vgg16 fp32 on h200 24.5–29.6); hollow, estimated")
has(md, "§5 ridges", "Each environment's ridges (FLOP/byte) are dashed in its lines' colour and tagged with their " ..
  "precision: epyc-2c fp32 6.21; h200 fp32 12.1, fp16 167.")

-- Figure B: each environment relative to its median, and the subtitle says no box is drawn.
local B = F["B:"]
local s1, s2 = B.spread[1], B.spread[2]
check("B relative", B.plot.relative == true and B.plot.yscale == nil, tostring(B.plot.yscale))
check("B Zen 5 spread", s1.env == "epyc-2c" and s1.n == 3 and near(s1.median, 12.1330, 1e-4) and
  near(s1.lo_pct, -7.354, 0.005) and near(s1.hi_pct, 8.807, 0.005) and near(s1.cv, 0.0805, 5e-4) and not s1.box,
  string.format("%s %s %s %s", s1.median, s1.lo_pct, s1.hi_pct, s1.cv))
check("B H200", s2.env == "h200" and s2.n == 1 and near(s2.median, 838.161, 1e-3) and s2.sd == nil, s2.median)
check("B subtitle", B.plot.subtitle:find("bar: mean ± 1 SD for epyc-2c (no box: < 5 repeats); h200: one run, no " ..
  "spread", 1, true) ~= nil and not B.plot.subtitle:find("from 5 repeats", 1, true), B.plot.subtitle)
has(md, "§4.2 Figure B", "It draws each environment's images/s as the % difference from its own median, so spreads " ..
  "compare across machines of any speed: epyc-2c 3 repeats around a median of 12.1 images/s, from -7.4 % to +8.8 % " ..
  "(CV 8.1 %); h200 one run, 838 images/s, no spread; no box (it needs 5 repeats): mean ± 1 SD as a bar, every " ..
  "repeat as a dot.")

-- 2. The old (Zen 3) and the fresh (Zen 5) EPYC: two environments, two ridges told apart.
F, md = report(P.out .. "/oz", P.epyc, P.zen5)
local z3, z5 = "epyc-2c [AMD EPYC AVX2]", "epyc-2c [AMD EPYC AVX-512]"
local C3 = F["C:" .. z3].plot.ceilings
check("C Zen 3 2nd ceiling", C3[2].label == "GEMM FP32 on OpenBLAS Zen kernels (2nd ceiling)" and
  near(C3[2].gflops, 152.2705, 1e-3) and not C3[2].reference and C3[2].secondary, C3[2].label)
local D2 = F["D:vgg16"]
local q3, q5 = series_named(D2, "ridge " .. z3 .. " fp32: 4.78"), series_named(D2, "ridge " .. z5 .. " fp32: 6.21")
check("D EPYC ridges", q3 and q5 and near(q3.y[1], 4.7786, 1e-3) and near(q5.y[1], 6.2103, 1e-3) and
  q3.color ~= q5.color, q3 and q3.y[1])
check("D EPYC tags apart", q3.labels_below == true and q3.labels[1] == "fp32 ridge 4.78" and not q5.labels_below and
  q5.labels[1] == "fp32 ridge 6.21", tostring(q3.labels_below))
check("D one method", series_named(D2, "filled: measured (counters)") == nil and
  D2.plot.subtitle:find("(estimated, hollow markers:", 1, true) ~= nil, D2.plot.subtitle)
local b3
for _, x in ipairs(F["B:"].spread) do if x.env == z3 then b3 = x end end
check("B Zen 3 spread", b3 and near(b3.median, 3.84212, 1e-4) and near(b3.lo_pct, -9.162, 0.005) and
  near(b3.hi_pct, 12.494, 0.005), b3 and b3.lo_pct)
has(md, "§5 Figure D one method", "**Figure D**'s AIs are all estimated, rlx's analytic FLOPs over its minimum " ..
  "traffic (hollow markers). Each environment's ridges (FLOP/byte) are dashed in its lines' colour and tagged with " ..
  "their precision: epyc-2c \\[AMD EPYC AVX-512\\] fp32 6.21; epyc-2c \\[AMD EPYC AVX2\\] fp32 4.78.")

print(failed == 0 and string.format("figures55: %d checks ok", passed) or string.format("figures55: %d of %d failed",
  failed, failed + passed))
if failed > 0 then os.exit(1) end
