-- export_seed_make.lua: study "kit" in DIR/kit.db, environment "envA", for the seed-layout export
-- (export_seed.sh): resnet50 at 224x224, fp32 and bf16, batch 16 and 32, one repeat each, through
-- study:sweep with a trainer that returns fixed images/s, so complexity and roofline points are
-- rlx's own and every exported number can be worked out by hand. Peaks: 20 GB/s and 100 GFLOP/s
-- (fp32 only: bf16 has no compute roof). A run that fails (vgg16) is left out of the kit.
-- Usage: rlx run export_seed_make.lua --set dir=DIR
local dir = assert(rlx.params.dir, "--set dir=")
os.remove(dir .. "/kit.db")
local IPS = {fp32 = {[16] = 100, [32] = 160}, bf16 = {[16] = 125, [32] = 200}}
local function trainer(o)
  if o.model == "vgg16" then return {ok = false, error = "out of memory (test)"} end
  local v = IPS[o.precision][o.batch]
  return {ok = true, images_per_s = v, iter_s = {mean = o.batch / v, sd = 0, median = o.batch / v},
    seconds = o.iters * o.batch / v, device = "cpu", precision = o.precision, batch = o.batch,
    data_wait_s = 0.5, user_s = 3, sys_s = 1, max_rss_bytes = 1e9, lr = 0.1, momentum = 0.9, weight_decay = 1e-4,
    data = "synthetic", memory_format = "channels_last", grad_accum = 1, deterministic = false, cudnn_benchmark = false}
end
local s = rlx.study{name = "kit", db = dir .. "/kit.db", label = "envA"}
s:store_peaks({dram_gbps = 20, fp32_gflops = 100}, {device = "cpu"})
s:sweep{models = {"resnet50", "vgg16"}, precision = {"fp32", "bf16"}, batch = {16, 32}, repeats = 1, iters = 5,
  warmup = 1, input = 224, trainer = trainer, quiet = true, memory_check = false}
s:close()
print("made")
