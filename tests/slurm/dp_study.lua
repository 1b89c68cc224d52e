-- tests/slurm/dp_study.lua: the data-parallel study the Slurm test submits (issue 52): ResNet-18 at
-- 32x32 on the CPU, batch 4 per rank, one process and 2 ranks (the same script runs locally with
-- rlx run). --set db=PATH places it.
local P = rlx.params
local study = rlx.study{name = "slurm-dp", db = P.db}
study:sweep{models = {"resnet18"}, batch = {4}, ranks = {1, 2}, warmup = 1, iters = 3, input = 32, classes = 10,
  device = "cpu", memory_format = "contiguous"}
study:close()
