-- Roofline points worked by hand (docs/roofline.md): the issue's memory-bound case, a compute-bound
-- case, a point above its roof, and roofs taken from a peaks table by precision and level.
local function show(tag, p)
  print(string.format("%s ai=%.2f gflops=%.1f attainable=%.1f ridge=%.2f bound=%s eff=%.4f above=%s", tag, p.ai,
    p.gflops, p.attainable_gflops, p.ridge_ai, p.bound, p.efficiency, tostring(p.above_roof)))
end
-- 8.297e9 / 4.843e8 = 17.13 FLOP/B; 8.297e9 / 5.030e-3 = 1649.5 GFLOP/s; 15.7e12 / 900e9 = 17.44.
show("memory", rlx.roofline.point{flops = 8.297e9, bytes = 4.843e8, seconds = 5.030e-3, peak_flops = 15.7e12,
  peak_bw = 900e9})
-- 1e12 / 1e10 = 100 FLOP/B > 17.44; 1e12 / 0.1 s = 10000 GFLOP/s of 15700: 0.6369.
show("compute", rlx.roofline.point{flops = 1e12, bytes = 1e10, seconds = 0.1, peak_flops = 15.7e12, peak_bw = 900e9})
-- ai 2, roof min(2 * 100, 1000) = 200 GFLOP/s, attained 400: flagged, not clipped.
show("above", rlx.roofline.point{flops = 4e11, bytes = 2e11, seconds = 1, peak_flops = 1e12, peak_bw = 100e9})
-- V100-SXM2 from the datasheet, fp16: the tensor roof 125000 GFLOP/s; ridge 125e12 / 900e9 = 138.89.
local v100 = rlx.peaks.datasheet("Tesla V100-SXM2-16GB")
local p = rlx.roofline.point{flops = 8.297e9, bytes = 4.843e8, seconds = 5.030e-3, peaks = v100, precision = "fp16"}
show("v100-fp16", p)
print("fields", p.compute_field, p.memory_field)
-- An environment carrying its peaks under .peaks works too; explicit peak_bw overrides the table.
p = rlx.roofline.point{flops = 1e9, bytes = 1e8, seconds = 1e-3, peaks = {peaks = {fp32_gflops = 2000,
  l2_gbps = 500}}, level = "l2", peak_bw = 50e9}
show("env-l2", p)
