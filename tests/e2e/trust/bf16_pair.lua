-- Issue 55, question 2 on a CPU: the default study's plan on the fixture machine of pinned_plan.lua
-- (the same peaks, calibrations, frozen clock and one CPU device), but with native bf16 in its flags
-- (avx512_bf16). The whole matrix (3 models x 3 batches x fp32 and bf16 x 3 repeats = 54 runs) does
-- not fit the budget, so the plan keeps bf16 at batch 16 only, the sweep's smallest: one fp32/bf16
-- pair per model (9 bf16 slots: 3 models x 3 repeats), every first run of the matrix kept (the pairs'
-- with them) before any run's third repeat; no bf16 run at batch 32 or 64 is in the matrix.
-- Without native bf16 (pinned_plan.lua) the plan leaves bf16 out and says why.
local tmp = (os.getenv("RLX_TEST_TMP") or "/tmp") .. "/trust_bf16_pair"
os.execute("rm -rf '" .. tmp .. "' && mkdir -p '" .. tmp .. "'")
local db = tmp .. "/fixture.db"

-- The fixture machine.
local capture = rlx.env.capture
rawset(rlx.env, "capture", function(opts)
  local env = capture(opts)
  env.cpu_flags = "fpu sse4_2 avx avx2 fma avx512f avx512_bf16"  -- native bf16: the pair is kept
  return env
end)
rawset(rlx, "devices", function() return {{kind = "cpu", id = "cpu", name = "Fixture CPU"}} end)
rawset(rlx._core.host, "monotonic", function() return 1000 end)

-- Its database: peaks and one calibration per model (fp32, 224x224), as rlx.calibrate.probe
-- stores them: the faster layout, its seconds per image at the probe's batch, the set-up, each
-- layout's timed steps (two rounds of one timed iteration at batch 2), and their verdict and CI.
local study = rlx.study{name = "p1-roofline", db = db, label = "fixture"}
study:store_peaks({fp32_gflops = 79.6, dram_gbps = 27.5}, {device = "cpu", source = "measured"})
local CALIBRATIONS = {
  {model = "resnet50", memory_format = "channels_last", per_image_s = 0.55, margin = 1.03, setup_s = 2.0,
    samples = {channels_last = {1.10, 1.13}, contiguous = {1.133, 1.16}}},
  {model = "vgg16", memory_format = "contiguous", per_image_s = 1.45, margin = 1.21, setup_s = 3.5,
    samples = {channels_last = {3.51, 3.55}, contiguous = {2.90, 2.95}}},
  {model = "mobilenet_v2", memory_format = "channels_last", per_image_s = 0.21, margin = 1.30, setup_s = 1.2,
    samples = {channels_last = {0.42, 0.43}, contiguous = {0.546, 0.56}}},
}
for _, c in ipairs(CALIBRATIONS) do
  study.db:put_calibration(study.env_id, {model = c.model, precision = "fp32", device = "cpu", input = 224,
    threads = 0, memory_format = c.memory_format, per_image_s = c.per_image_s, margin = c.margin,
    probe = {batch = 2, seconds = 12, setup_s = c.setup_s, samples = c.samples, rounds = 2,
      verdict = rlx.calibrate.judge(c.samples).verdict, ci = rlx.calibrate.judge(c.samples).ci}})
end
study:close()

-- The dry run, as `rlx run experiments/all.lua --dry-run --set db=... --set label=fixture` runs it.
rlx.flags.dry_run = true
for k, v in pairs({db = db, label = "fixture", figures = tmp .. "/figures"}) do rlx.params_text[k] = v end
local lines = {}
local real_print = print
_G.print = function(...)
  local parts = {}
  for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
  lines[#lines + 1] = table.concat(parts, "\t")
end
local saved_arg0 = arg[0]
arg[0] = "experiments/all.lua"
dofile("experiments/all.lua")
arg[0] = saved_arg0
_G.print = real_print

local function has(what, pat)
  for _, l in ipairs(lines) do if l:find(pat) then return l end end
  error("bf16 pair: no line " .. what .. " (" .. pat .. ")\n" .. table.concat(lines, "\n"))
end
has("note", "^cpu: bf16 kept at batch 16 only: one fp32/bf16 pair per model %(resnet50, vgg16, mobilenet_v2%)")
has("matrix", "environment fixture: 36 runs in the matrix")
local first_out, third_kept
for _, l in ipairs(lines) do
  assert(not l:find("_bf16_bs32_") and not l:find("_bf16_bs64_"), "a bf16 run beyond batch 16: " .. l)
  local label, what = l:match("^%s+%d+%s+(fixture_%S+)%s+(%S+)")
  if label then
    if label:find("_run1$") and what ~= "run" then first_out = label end
    if label:find("_run3$") and what == "run" then third_kept = label end
  end
end
for _, m in ipairs({"resnet50", "vgg16", "mobilenet_v2"}) do
  has(m .. " pair", "^%s+%d+%s+fixture_" .. m .. "_bf16_bs16_run1%s+run,")
end
assert(not (first_out and third_kept), "a third repeat (" .. tostring(third_kept) .. ") kept while a first run (" ..
  tostring(first_out) .. ") is left out")
print("bf16 pair ok")
