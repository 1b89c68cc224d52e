-- experiments/cpu.lua: the CPU environment (seed 001's Mac CPU row: batch 16/32/64). The seed
-- measures fp32 only; rlx's CPU study measures bf16 too (CPUs with AVX-512 BF16 or AMX train it
-- faster, and the roofline shows by how much). Counters are off: on CPU the roofline points come
-- from the analytic complexity (source "estimated").
--
-- This file is also the fallback for every CPU without its own experiments/<label>.lua. To add an
-- environment, copy it to experiments/<label>.lua, change the lists, and run
-- `rlx run experiments/all.lua --set label=<label>` (rlx.experiment.pick: docs/study.md).
-- The models, repeats and scales are shared by every environment: experiments/matrix.lua.
return {kind = "cpu", batch = {16, 32, 64}, precision = {"fp32", "bf16"}}
