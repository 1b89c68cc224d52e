-- experiments/rtx4090.lua: seed 001's RTX 4090 row (24 GB; fp32 and amp, batch 64/128/256), with
-- hardware counters (CUPTI). all.lua uses it on a machine whose environment label is "rtx4090"
-- (--set label=rtx4090) or whose GPU's hardware label is (an RTX 4090 is found by its name).
--
-- To add an environment, copy this file to experiments/<label>.lua and change the lists; the
-- models, repeats and scales are shared by every environment: experiments/matrix.lua.
return {kind = "cuda", batch = {64, 128, 256}, precision = {"fp32", "amp"}, counters = true}
