-- experiments/cuda.lua: any CUDA GPU without its own experiments/<label>.lua (seed 001's batch
-- 64/128/256, fp32 and amp). Hardware counters (CUPTI) are on, so the roofline points are measured
-- FLOPs and DRAM bytes rather than estimates (--set counters=false turns them off).
--
-- all.lua picks an environment script by the environment label (--set label=, RLX_ENV), then by
-- the GPU's hardware label (rtx4090, h100, ...), then by the device kind (this file). To add an
-- environment, copy this file to experiments/<label>.lua and change the lists.
-- The models, repeats and scales are shared by every environment: experiments/matrix.lua.
return {kind = "cuda", batch = {64, 128, 256}, precision = {"fp32", "amp"}, counters = true}
