-- Issue 55, point 5 and the Lua side of point 6: causes from the data, on copies of the real
-- fixtures (tests/fixtures/studies). Usage: rlx run causes.lua --set h200=PATH --set zen5=PATH
-- --set epyc=PATH (copies: the report only reads, but a copy keeps the fixtures untouched).
--
-- 1. The H200 study, one run per row. Mean wall time per step (runs.iter_mean_s) and analytic
--    FLOPs per step (complexity.train_flops):
--      ResNet-50 amp   batch 64  26.68 ms, 1564 GFLOP; batch 128 28.02 ms, 3128; batch 256 49.97, 6256
--      ResNet-50 fp32  batch 64  76.36 ms;            batch 128 138.55 ms;     batch 256 263.38
--      VGG-16 fp32     batch 64 113.01 ms, 5934;      batch 128 217.04, 11868; batch 256 425.39, 23735
--    CUPTI's gpu__time_duration.sum per step (derived seconds, iterations = 1): amp 64 28.85 ms,
--    above 60 % of 26.68 (16.01): the kernel reading does not flag it (the range time includes gaps).
--    The batch reading: the part of the step growing with the work, (t2 - t1) / (w - 1) / t1:
--      amp 64 -> 128: (28.02 - 26.68) / (2.00 - 1) / 26.68 = 0.050 < 0.60: host/launch-bound;
--      amp 128 -> 256: (49.97 - 28.02) / 1 / 28.02 = 0.783: not (memory-bound, as the roofline says);
--      fp32 64 -> 128: (138.55 - 76.36) / 76.36 = 0.814; VGG-16 64 -> 128: (217.04 - 113.01) /
--      113.01 = 0.921: not. Rows at the largest batch have no next batch: not.
--    So 1 host/launch-bound row of 9.
-- 2. VGG-16 fp32 on the H200: measured FLOPs (cupti, flops_tensor = 0: no TF32) ÷ analytic =
--    3055.7 / 5934 = 0.515, 6059.9 / 11868 = 0.511, 12068.1 / 23735 = 0.508: below 0.80, a convolutional
--    model on a GPU: the Winograd/FFT cause. Analytic FLOPs over the step: 23735 / 0.42539 = 55796
--    GFLOP/s at batch 256 (5934 / 0.11301 = 52510 at 64), above the GEMM FP32 roof of 51214.
--    ResNet-50 (0.89-1.05) stays within 0.80-1.25: no line.
-- 3. The ridge's range is at least ±5 %: the EPYC's fp32 ridge 4.78 (FMA 200.2 / DRAM 41.90) ranges
--    from 4.78 x 0.95 = 4.54 (the FMA's 1.8 % spread alone gave 4.69) to 5.30 (DRAM spread 9.8 %).
-- 4. The Zen 5 study: OpenBLAS ran its Haswell kernels (OPENBLAS_CORETYPE=Haswell set by the user,
--    its environment record); its fp32 GEMM is 213.2 GFLOP/s and its fp32 ResNet-50/VGG-16 points
--    exceed it (issue 55: 256-389 GFLOP/s): the GEMM line is a reference, named with the BLAS.
local P = rlx.params.declare{h200 = {type = "string", required = true}, zen5 = {type = "string", required = true},
  epyc = {type = "string", required = true}}
local compute = require("rlx.report.compute")
local analysis = require("rlx.report.analysis")
local data = require("rlx.studydb.data")
local tmp = os.getenv("RLX_TEST_TMP") or "/tmp"
local failed = 0
local function check(what, cond, detail)
  if cond then print("ok\t" .. what) else failed = failed + 1; print("FAIL\t" .. what .. "\t" .. tostring(detail)) end
end
local function load(path)
  local db = rlx.db.open(path, {readonly = true})
  return data.load(db, nil, path), db
end
local function row(D, model, precision, batch)
  for _, g in ipairs(D.groups) do
    if g.model == model and g.precision == precision and g.batch == batch then return g end
  end
end
local function near(x, want, tol) return type(x) == "number" and math.abs(x - want) <= tol end

-- 1. Host/launch-bound on the H200.
local D, db = load(P.h200)
local g = row(D, "resnet50", "amp", 64)
local r = compute.roofline(D, g)
check("amp 64 host", r.host and compute.class_of(r) == "host/launch-bound", compute.class_of(r))
check("amp 64 times", r.host and r.host.kernel_s == nil and near(r.host.step_s, 0.02668, 5e-5) and
  near(r.host.next_step_s, 0.02802, 5e-5) and near(r.host.work, 2.0, 1e-3) and near(r.host.share, 0.050, 2e-3),
  r.host and string.format("%s %s %s %s", r.host.step_s, r.host.next_step_s, r.host.work, r.host.share))
check("amp 64 kernel time", near(compute.kernel_seconds(D, g.runs[1]), 0.02885, 1e-5),
  compute.kernel_seconds(D, g.runs[1]))
check("amp 64 text", compute.bound_text(r) == "host/launch-bound (26.7 ms a step at batch 64 against 28.0 ms at " ..
  "batch 128 with 2.00x the FLOPs)", compute.bound_text(r))
-- The kernel reading, from the same numbers: kernels of 11.2 ms in a 26.7 ms step.
check("kernel text", compute.host_text{kernel_s = 0.0112, step_s = 0.0267} == "kernels 11.2 ms of a 26.7 ms step",
  compute.host_text{kernel_s = 0.0112, step_s = 0.0267})
local classes = {}
for _, x in ipairs(D.groups) do
  local c = compute.class_of(compute.roofline(D, x))
  classes[c] = (classes[c] or 0) + 1
end
check("h200 classes", classes["host/launch-bound"] == 1 and classes["memory-bound"] == 2 and
  classes["compute-bound"] == 6, string.format("%s host, %s memory, %s compute", tostring(classes["host/launch-bound"]),
  tostring(classes["memory-bound"]), tostring(classes["compute-bound"])))
check("amp 128 memory", compute.class_of(compute.roofline(D, row(D, "resnet50", "amp", 128))) == "memory-bound")
-- The report says it: Table 2's cell, the abstract's count and the draft's cause.
local out = rlx.report.write(db, {dir = tmp .. "/report_causes_h200", quiet = true, html = false})
local f = assert(io.open(out.markdown))
local md = f:read("*a")
f:close()
check("table 2 cell", md:find("| host/launch-bound (26.7 ms a step at batch 64 against 28.0 ms at batch 128 with " ..
  "2.00x the FLOPs) |", 1, true))
check("abstract count", md:find("2 are memory-bound and 6 compute-bound; 1 is host/launch-bound", 1, true))
check("draft", md:find("Where host/launch-bound the GPU waits on the host (26.7 ms a step at batch 64", 1, true))
-- AMP at batch 128 and 256 stays memory-bound, at 52.6 % of its DRAM roof at most (the report's
-- % of roof, Appendix F.7): under 60 %, so its draft says the roof does not set its time.
check("far below the roof", md:find("But it reaches at most 52.6 % of the DRAM roof at its AI", 1, true))
-- 2. VGG-16's FLOPs: the cause, and the analytic point above its roof.
check("flop cause", md:find("- h200, vgg16, fp32: measured ÷ analytic FLOPs 0.51, 0.51, 0.51 at batch 64, 128, 256 " ..
  "(outside 0.80-1.25): likely cause: cuDNN ran convolution algorithms that do fewer FLOPs", 1, true))
check("above roof", md:find("batch 256 reaches 55796 GFLOP/s, above its GEMM FP32 roof of 51214", 1, true) and
  md:find("batch 64 reaches 52510 GFLOP/s", 1, true))
check("resnet no cause", not md:find("- h200, resnet50, fp32: measured", 1, true) and
  not md:find("- h200, resnet50, amp: measured", 1, true))
check("cause rule", analysis.flop_cause(1.0, "cuda", "vgg16") == nil and analysis.flop_cause(0.5, "cpu", "vgg16")
  :find("^unexplained") ~= nil and analysis.flop_cause(1.4, "cuda", "resnet50", 1e12):find("tensor%-core") ~= nil)

-- 3. The ridge's range on the EPYC.
local E = load(P.epyc)
local m = compute.roofline(E, row(E, "mobilenet_v2", "fp32", 64))
check("ridge range", near(m.ridge_ai, 4.78, 0.005) and near(m.ridge_lo, m.ridge_ai * 0.95, 1e-9) and
  near(m.ridge_hi, 5.30, 0.005) and compute.class_of(m) == "near the ridge",
  string.format("%s %s %s", m.ridge_ai, m.ridge_lo, m.ridge_hi))

-- Batch 16 (AI 3.69-4.6883, estimated) was memory-bound by 0.06 % against the spread-only range's
-- bottom, 4.6909; against 4.54 it is near the ridge, like batches 32 and 64: no "change of class".
local m16 = compute.roofline(E, row(E, "mobilenet_v2", "fp32", 16))
check("batch 16 near the ridge", compute.class_of(m16) == "near the ridge" and m16.ai_hi < 4.6909 and
  m16.ai_hi > m16.ridge_lo, string.format("%s %s %s", compute.class_of(m16), m16.ai_hi, m16.ridge_lo))

-- 4. The Zen 5's GEMM line.
local Z = load(P.zen5)
local env = Z.envs[1]
local words = compute.blas_words(env.info)
check("blas words", words == "OpenBLAS (openmp build, Haswell kernels; OPENBLAS_CORETYPE=Haswell set in the " ..
  "environment)", words)
local z = compute.roofline(Z, row(Z, "resnet50", "fp32", 16))
local top = 0
for _, x in ipairs(Z.groups) do
  local q = compute.roofline(Z, x)
  if q and x.precision == "fp32" then top = math.max(top, q.gflops) end
end
local label, exceeded = compute.gemm_ceiling_label({gemm_label = z.gemm_label, gemm_gflops = z.gemm_gflops},
  env.info, top, "cpu")
check("gemm reference", exceeded and near(z.gemm_gflops, 213.2, 0.05) and top > 256 and label ==
  "GEMM FP32 on OpenBLAS (openmp build, Haswell kernels; OPENBLAS_CORETYPE=Haswell set in the environment) " ..
  "(reference: training points exceed it)", string.format("%s %s %s", label, tostring(z.gemm_gflops), top))
if failed > 0 then rlx.fail(1, failed .. " checks failed") end
