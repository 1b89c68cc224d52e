-- The study's plan (issue 21 items 2 and 3): bf16 on a CPU only where it is native, the note that
-- says why, carried into the report's design section and limitations; the budget's cuts.
local tmp = os.getenv("RLX_TEST_TMP") or "/tmp"
local dir = tmp .. "/trust_plan"
os.execute("rm -rf '" .. dir .. "' && mkdir -p '" .. dir .. "'")
local failures = 0
local function check(what, ok, detail)
  if not ok then failures = failures + 1 end
  print((ok and "ok\t" or "FAIL\t") .. what .. (ok and "" or ("\t" .. tostring(detail))))
end
local E = rlx.experiment
check("native: avx512_bf16", E.native_bf16{cpu_flags = "fpu avx2 avx512f avx512_bf16 fma"})
check("native: AMX", E.native_bf16{cpu_flags = "avx512f amx_bf16 amx_tile"})
check("native: Arm bf16", E.native_bf16{cpu_flags = "fp asimd bf16 i8mm"})
check("emulated: AVX-512 without BF16", not E.native_bf16{cpu_flags = "fpu avx2 avx512f avx512bw fma"})
check("emulated: no flags", not E.native_bf16{})

-- A stand-in trainer (nothing trains): 1 s steps in either layout, so calibration is instant.
rawset(rlx, "train", function(o)
  return {ok = true, images_per_s = o.batch, seconds = 1, iters = 1, iter_s = {mean = 1, sd = 0, median = 1},
    samples = {1, 1}, warmup_samples = {1}, device = "cpu", precision = o.precision, batch = o.batch,
    stop_reason = "fixed"}
end)
local matrix = dofile("experiments/matrix.lua")
local S = E.scale(matrix, {scale = "smoke"})
local study = rlx.study{name = "plan", db = dir .. "/plan.db", label = "noemu"}
study.env.cpu_flags = "fpu sse4_2 avx2 fma avx512f"  -- as captured on a CPU without AVX512-BF16
study:store_peaks({fp32_gflops = 100, dram_gbps = 10}, {device = "cpu"})
local NOTE = "bf16 left out: this CPU has no native bf16 (no avx512_bf16 or AMX), so LibTorch emulates it, about 2x " ..
  "slower than fp32; --set precision=fp32,bf16 measures it anyway"
local plan = E.plan(study, {dir = "experiments", matrix = matrix, scale = S, list = {{kind = "cpu", id = "cpu"}}})
local d = plan.devices[1]
check("fp32 only", #d.sweep.precision == 1 and d.sweep.precision[1] == "fp32", table.concat(d.sweep.precision, ","))
check("the note", d.notes[1] == NOTE, d.notes[1])
-- --set precision= overrides: bf16 measured anyway, no note.
local S2 = E.scale(matrix, {scale = "smoke", precision = "fp32,bf16"})
local p2 = E.plan(study, {dir = "experiments", matrix = matrix, scale = S2, list = {{kind = "cpu", id = "cpu"}}})
check("precision override", #p2.devices[1].sweep.precision == 2 and #p2.devices[1].notes == 0)
-- A precision the device refuses with this build (rlx.devices()'s refused_precisions: LibTorch 1.13
-- on an arm64 CPU with bf16) is left out with its refusal, even when asked for or native.
local WHY = "precision 'bf16' cannot train on this CPU with LibTorch 1.13.0: ...; use precision=\"fp32\" on this CPU"
local refusing = {{kind = "cpu", id = "cpu", refused_precisions = {bf16 = WHY}}}
local p3 = E.plan(study, {dir = "experiments", matrix = matrix, scale = S2, list = refusing})
check("refused: fp32 only", #p3.devices[1].sweep.precision == 1 and p3.devices[1].sweep.precision[1] == "fp32",
  table.concat(p3.devices[1].sweep.precision, ","))
check("refused: the note", p3.devices[1].notes[1] == "bf16 left out: " .. WHY, p3.devices[1].notes[1])
-- Every precision asked for refused: the device is skipped, and the plan has none.
local S3 = E.scale(matrix, {scale = "smoke", precision = "bf16"})
local p4 = E.plan(study, {dir = "experiments", matrix = matrix, scale = S3, list = refusing})
check("refused: every precision, device skipped", #p4.devices == 0, #p4.devices)

-- The note reaches the report through the runs.
local sw = {}
for k, v in pairs(d.sweep) do sw[k] = v end
sw.notes, sw.quiet, sw.noise_floor, sw.models = d.notes, true, false, {"resnet50"}
study:sweep(sw)
local out = study:report{dir = dir .. "/report", quiet = true}
local f = assert(io.open(out.markdown))
local md = f:read("*a")
f:close()
check("design section", md:find("**Left out by the plan:** " .. NOTE .. ".", 1, true) ~= nil)
check("limitations", md:find("\n- " .. NOTE .. ".", 1, true) ~= nil)
print(failures == 0 and "plan ok" or (failures .. " failures"))
