-- experiments/envs/rtx4090.lua: seed 001's RTX 4090 row (cuda, fp32 and amp, batch 64/128/256).
-- all.lua uses this file on a machine whose environment label, or whose GPU, is "rtx4090"; to add
-- an environment, copy this file to envs/<label>.lua and change the lists.
return {kind = "cuda", batch = {64, 128, 256}, precision = {"fp32", "amp"}}
