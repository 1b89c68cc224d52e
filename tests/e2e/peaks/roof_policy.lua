-- rlx.roofline.roof: one roof policy for every precision (issue 22), numbers worked by hand.
local function show(tag, r)
  print(string.format("%s %s %s %s %s %s emulated=%s gemm=%s %s", tag, r.precision, r.field, tostring(r.gflops),
    r.label, r.kind, tostring(r.emulated), tostring(r.gemm_gflops), r.gemm_label or "-"))
end
local function row(tag, r)
  print(string.format("%s %s ai=%.3f gflops=%.2f roof=%s ridge=%.3f attainable=%.2f bound=%s eff=%.4f above=%s", tag,
    r.precision, r.ai, r.gflops, r.compute_field, r.ridge_ai, r.attainable_gflops, r.bound, r.efficiency,
    tostring(r.above_roof)))
end

-- A CPU with VDPBF16PS: fp32 against its FMA peak, bf16 against its VDPBF16PS peak, each with its
-- own GEMM as the second ceiling.
local native = {device = "cpu", fp32_gflops = 343, bf16_gflops = 172, gemm_fp32_gflops = 290,
  gemm_bf16_gflops = 168, dram_gbps = 38.7, bf16_emulated = 0}
show("native", rlx.roofline.roof(native, "fp32"))
show("native", rlx.roofline.roof(native, "bf16"))
-- AMX where the CPU has it: the tile peak is bf16's roof.
show("amx", rlx.roofline.roof({device = "cpu", fp32_gflops = 300, bf16_gflops = 300, bf16_tensor_gflops = 4000,
  gemm_bf16_gflops = 1800}, "bf16"))

-- The issue's machine: no avx512_bf16, no AMX. bf16's roof is the FP32 FMA peak, labelled
-- emulated; the bf16 GEMM (60 GFLOP/s) is only the second ceiling. Both precisions get the same
-- ridge, 343 / 38.7 = 8.863 FLOP/byte.
local emulated = {device = "cpu", fp32_gflops = 343, bf16_gflops = 343, bf16_emulated = 1, gemm_fp32_gflops = 64.3,
  gemm_bf16_gflops = 60, dram_gbps = 38.7}
show("emulated", rlx.roofline.roof(emulated, "bf16"))
-- A MobileNetV2-like step, AI 5 (5e9 FLOP, 1e9 byte): fp32 in 1/12 s = 60 GFLOP/s, bf16 1.7x slower in
-- 1.7/12 s = 35.29 GFLOP/s. Both memory-bound: roof 5 x 38.7 = 193.5; 60 / 193.5 = 0.3101,
-- 35.29 / 193.5 = 0.1824. (Against the bf16 GEMM, ridge 60 / 38.7 = 1.550, bf16 was "compute-bound".)
local c = {train_flops = 5e9, bytes = 1e9}
row("emulated", rlx.roofline.for_run({iter_s = {mean = 1 / 12}, precision = "fp32"}, {peaks = emulated,
  complexity = c})[1])
row("emulated", rlx.roofline.for_run({iter_s = {mean = 1.7 / 12}, precision = "bf16"}, {peaks = emulated,
  complexity = c})[1])

-- Peaks without a peak of bf16 arithmetic (stored by an older rlx): the GEMM is the roof, said so.
local old = rlx.roofline.roof({device = "cpu", fp32_gflops = 100, gemm_bf16_gflops = 50}, "bf16")
show("old", old)
print("note", old.note)

-- TF32 on an A100 measured by rlx (GEMMs only) with its datasheet: measured before datasheet (issue
-- 45), an fp32 run with tf32 = true is judged against the measured TF32 GEMM, 120000 GFLOP/s (the
-- datasheet's TF32 tensor 156000 is a reference); without TF32 the measured FP32 GEMM, 19000.
local a100 = rlx.peaks.datasheet("NVIDIA A100-SXM4-40GB")
local measured = {device = "cuda", gemm_fp32_gflops = 19000, gemm_tf32_gflops = 120000, dram_gbps = 1400}
local f32 = rlx.roofline.roof(measured, "fp32", {datasheet = a100})
show("cuda", f32)
print("reference", f32.datasheet_field, f32.datasheet_gflops)
local t = rlx.roofline.roof(measured, "fp32", {tf32 = true, datasheet = a100})
show("tf32", t)
print("origin", t.origin, t.note)
-- 1e12 FLOP and 1e10 byte per step in 0.01 s: AI 100, 100000 GFLOP/s. TF32: ridge 120000 / 1400 =
-- 85.714, compute-bound, roof 120000, 0.8333. The same run judged as plain fp32 is "above its roof"
-- (100000 > 19000): the FLOP-drop trap when TF32 is on and nobody says so.
local step = {train_flops = 1e12, bytes = 1e10}
row("tf32", rlx.roofline.for_run({iter_s = {mean = 0.01}, precision = "fp32", tf32 = true}, {peaks = measured,
  complexity = step, datasheet = a100})[1])
row("fp32", rlx.roofline.for_run({iter_s = {mean = 0.01}, precision = "fp32", config = {tf32 = false}},
  {peaks = measured, complexity = step, datasheet = a100})[1])
-- tf32 on CPU peaks does nothing: the FP32 FMA roof, with a note.
local cpu_tf32 = rlx.roofline.roof(native, "fp32", {tf32 = true})
print("cpu-tf32", cpu_tf32.precision, cpu_tf32.field, cpu_tf32.note)
