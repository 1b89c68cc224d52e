-- experiments/gcp.lua: seed 001's "GCP GPU" row (fp32 and amp, batch 32/64/128), for a cloud GPU
-- with less memory than the 4090, with hardware counters (CUPTI). Chosen with --set label=gcp (or
-- RLX_ENV=gcp).
--
-- To add an environment, copy this file to experiments/<label>.lua and change the lists; the
-- models, repeats and scales are shared by every environment: experiments/matrix.lua.
return {kind = "cuda", batch = {32, 64, 128}, precision = {"fp32", "amp"}, counters = true}
