-- gpu_unusable.lua: a machine whose NVIDIA GPU this rlx build cannot use says so. The driver's
-- /proc/driver/nvidia files are faked under a temporary root (rlx._core.env.capture's second
-- argument); rlx.env.gpu_unusable is checked for each case, then a study opened with that
-- environment warns on stderr (the test's STDERR regex), stores the reason in the environment,
-- and its report and env_info.md say it.
local dir = (os.getenv("RLX_TEST_TMP") or "/tmp") .. "/gpu-unusable"
local gpu = dir .. "/proc/driver/nvidia/gpus/0000:01:00.0"
assert(os.execute("rm -rf '" .. dir .. "' && mkdir -p '" .. gpu .. "'") == 0)
local f = assert(io.open(gpu .. "/information", "w"))
f:write("Model: \t\t NVIDIA H100 80GB HBM3\nIRQ:   \t\t 35\n")
f:close()
f = assert(io.open(dir .. "/proc/driver/nvidia/version", "w"))
f:write("NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar  5 22:23:56 UTC 2024\n")
f:close()

local real_capture = rlx._core.env.capture
local env = real_capture("fake", dir)
assert(#env.gpus == 1 and env.gpus[1].name == "NVIDIA H100 80GB HBM3", rlx.inspect(env.gpus))
local cpu_only = {{kind = "cpu", id = "cpu", name = "cpu"}}
-- visible = false: as if CUDA_VISIBLE_DEVICES were unset, whatever this test's environment holds.
local why = rlx.env.gpu_unusable(env, cpu_only, {torch_cuda = false, torch = "1.13.1"}, false)
assert(why == "NVIDIA H100 80GB HBM3 is present, but this rlx is built against a CPU-only LibTorch 1.13.1, so it " ..
  "trains on the CPU only; rebuild on this machine with scripts/setup.sh, which finds a CUDA LibTorch (docs/gpu.md)", why)
why = rlx.env.gpu_unusable(env, cpu_only, {torch_cuda = true, torch = "2.5.1"}, false)
assert(why == "NVIDIA H100 80GB HBM3 is present and this rlx's LibTorch has CUDA, but LibTorch sees no CUDA device " ..
  "(is the driver older than LibTorch's CUDA?)", why)
-- GPUs hidden on purpose (CUDA_VISIBLE_DEVICES empty or -1) are no fault; a device named is not hiding.
for _, v in ipairs({"", " ", "-1", "-1,0"}) do
  assert(rlx.env.gpu_unusable(env, cpu_only, {torch_cuda = true}, v) == nil, "hidden: '" .. v .. "'")
  assert(rlx.env.gpu_unusable(env, cpu_only, {torch_cuda = false}, v) == nil, "hidden: '" .. v .. "'")
end
assert(rlx.env.gpu_unusable(env, cpu_only, {torch_cuda = true}, "0"):find("sees no CUDA device", 1, true))
assert(rlx.env.gpu_unusable(env, cpu_only, {torch_cuda = true}, "GPU-1234"):find("sees no CUDA device", 1, true))
assert(rlx.env.gpu_unusable(env, {cpu_only[1], {kind = "cuda", id = "cuda:0"}}, {torch_cuda = true}) == nil)
assert(rlx.env.gpu_unusable(real_capture("nogpu", dir .. "/empty"), cpu_only, {torch_cuda = false}) == nil)

-- The rest needs a CPU-only LibTorch (Debian's, CI): a CUDA build's study sees the real GPU.
if rlx.version().torch_cuda then
  print("gpu_unusable ok (CUDA LibTorch: the study part is for CPU-only builds)")
  return
end
-- This machine as the study sees it, with the fake driver files: rlx.devices() has no CUDA device
-- here (no GPU, CPU-only LibTorch), so the study warns and records why.
rlx._core.env.capture = function(label) return real_capture(label, dir) end
local study = rlx.study{name = "gpu-unusable", db = dir .. "/study.db", label = "fake"}
assert(study.env.gpu_unusable and study.env.gpu_unusable:find("CPU%-only LibTorch"), tostring(study.env.gpu_unusable))
local stored = study.db:first("SELECT info FROM environments WHERE id = ?", study.env_id)
assert(rlx.db.decode(stored.info).gpu_unusable == study.env.gpu_unusable)
assert(rlx.env.markdown(study.env):find("| **GPU not used** | NVIDIA H100 80GB HBM3 is present, but", 1, true))
-- The report of a study run there says it before anything else.
study:store_run({model = "resnet18", batch = 2, precision = "fp32", device = "cpu"},
  {ok = true, images_per_s = 10, seconds = 0.2, iter_s = {mean = 0.2}}, {run = 1})
local out = rlx.report.write(study, {dir = dir .. "/report", html = false, quiet = true})
local text = assert(io.open(out.markdown)):read("*a")
assert(text:find("**Warning: the GPU of environment fake was not used.** NVIDIA H100 80GB HBM3 is present, but " ..
  "this rlx is built against a CPU-only LibTorch", 1, true), text:sub(1, 600))
study:close()
rlx._core.env.capture = real_capture
print("gpu_unusable ok")
