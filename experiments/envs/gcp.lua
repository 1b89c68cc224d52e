-- experiments/envs/gcp.lua: seed 001's "GCP GPU" row (cuda, fp32 and amp, batch 32/64/128), for a
-- cloud GPU with less memory than the 4090. Chosen with --set label=gcp (or RLX_ENV=gcp); copy it
-- to envs/<label>.lua for another environment.
return {kind = "cuda", batch = {32, 64, 128}, precision = {"fp32", "amp"}}
