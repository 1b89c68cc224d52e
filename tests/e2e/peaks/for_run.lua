-- rlx.roofline.for_run: rows from measured counters when present, else from the analytic
-- complexity over the measured time per iteration; numbers worked by hand.
local function show(rows)
  for _, r in ipairs(rows) do
    print(string.format("%s %s %s ai=%.2f gflops=%.2f attainable=%s bound=%s eff=%s", r.source, r.level, r.precision,
      r.ai, r.gflops, r.attainable_gflops and string.format("%.2f", r.attainable_gflops) or "nil", tostring(r.bound),
      r.efficiency and string.format("%.3f", r.efficiency) or "nil"))
  end
  print("rows", #rows)
end
local peaks = {fp32_gflops = 100, dram_gbps = 5, gemm_bf16_gflops = 40}
-- Estimated: 1e10 FLOP and 1e9 B per iteration in 0.5 s: ai 10, 20 GFLOP/s; roof min(10 * 5, 100)
-- = 50 GFLOP/s (ridge 20): memory-bound at 40 %.
show(rlx.roofline.for_run({iter_s = {mean = 0.5}, batch = 8, precision = "fp32"},
  {peaks = peaks, complexity = {train_flops = 1e10, bytes = 1e9}}))
-- A list of complexity rows: the one for the run's batch (16) is used; bf16 takes gemm_bf16_gflops.
show(rlx.roofline.for_run({iter_s = {mean = 1}, config = {batch = 16, precision = "bf16"}},
  {peaks = peaks, complexity = {{batch = 8, train_flops = 1e10, bytes = 1e9}, {batch = 16, train_flops = 8e10,
  bytes = 1e9}}}))
-- Measured counters win: 4e10 FLOP, 2e9 DRAM bytes, 8e9 L2 bytes over 2 counted iterations, per
-- iteration 2e10 FLOP, 1e9 B, 4e9 B, over the mean *timed* iteration 0.5 s (the counters' own 2 s
-- are ignored): dram ai 20, 40 GFLOP/s, roof min(20 * 5, 100) = 100 (at the ridge); l2 ai 5.
show(rlx.roofline.for_run({iter_s = {mean = 0.5}, counters = {source = "cupti", derived = {flops = 4e10,
  dram_bytes = 2e9, l2_bytes = 8e9, seconds = 2, iterations = 2}}}, {peaks = peaks, complexity = {train_flops = 1e10,
  bytes = 1e9}}))
-- The count may sit on the counters table: 4 iterations -> 1e10 FLOP, 5e8 B per iteration, 20 GFLOP/s.
show(rlx.roofline.for_run({iter_s = {mean = 0.5}, counters = {iterations = 4, derived = {flops = 4e10,
  dram_bytes = 2e9}}}, {peaks = peaks}))
-- Counters without an iteration count (theirs, or the run's iters for results from before counted
-- iterations) cannot be put per iteration: the estimate is used.
show(rlx.roofline.for_run({iter_s = {mean = 0.5}, counters = {derived = {flops = 4e10, dram_bytes = 2e9}}},
  {peaks = peaks, complexity = {train_flops = 1e10, bytes = 1e9}}))
print(rlx.roofline.for_run({iter_s = {mean = 0.5}, counters = {source = "ncu", iterations = 1, derived = {flops = 1,
  dram_bytes = 1}}})[1].counters_source)
-- No peaks: intensity and attained rate only. No complexity and no counters: no rows.
show(rlx.roofline.for_run({iter_s = {mean = 0.5}}, {complexity = {train_flops = 1e10, bytes = 1e9}}))
show(rlx.roofline.for_run({iter_s = {mean = 0.5}}, {peaks = peaks}))
