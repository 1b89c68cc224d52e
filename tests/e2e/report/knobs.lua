-- The knobs section of a CUDA study's report (issue 46), §6.7:
-- 1. a copy of the real H200 study (tests/fixtures/studies/h200-default-study.db) varies the
--    precision: ResNet-50 amp over fp32 at batch 64, 128, 256 from its stored images/s, one run per
--    side (no CI); cuda_graphs, absent from its runs, is not varied;
-- 2. a synthetic CUDA study (README of tests/fixtures/studies) varies cudnn_benchmark: ResNet-18 at
--    batch 8, {100, 104, 96} images/s off and {120, 126, 114} on. Ratio 120 / 100 = 1.20; SD 4 and 6;
--    u_a = 36 / (3 x 120²) = 0.00083333, u_b = 16 / (3 x 100²) = 0.00053333; SE = 1.2 x √0.00136667 =
--    0.044362; df = 0.00136667² / (u_a² / 2 + u_b² / 2) = 3.816; t975(3.816) = 2.776 + 0.406 x
--    (1/3.816 - 1/4) / (1/3 - 1/4) = 2.8347; half 0.12575: [1.07, 1.33].
-- Usage: rlx run knobs.lua --set fixture=PATH (a copy of the H200 database)
local P = rlx.params.declare{fixture = {type = "string", required = true, help = "a copy of the H200 database"}}
local tmp = os.getenv("RLX_TEST_TMP") or "/tmp"
local function read(path)
  local f = assert(io.open(path))
  local t = f:read("*a")
  f:close()
  return t
end
local function has(what, md, text)
  if md:find(text, 1, true) then print("ok\t" .. what) else print("MISSING\t" .. what .. "\t" .. text) end
end

-- 1. The H200 study: precision is its knob.
local db = rlx.db.open(P.fixture, {readonly = true})
local ips = {}
for _, r in ipairs(db:runs{status = "ok"}) do ips[r.label] = r.images_per_s end
db:close()
local out = rlx.report.write(rlx.db.open(P.fixture, {readonly = true}), {dir = tmp .. "/report_knobs_h200", quiet = true})
local md = read(out.markdown)
has("h200 section", md, "### 6.7 Framework knobs (CUDA)")
has("h200 varied", md, "Knobs varied: precision; not varied (one setting per configuration, or not recorded): " ..
  "memory_format, cuda_graphs, cudnn_benchmark, tf32:")
for _, b in ipairs({64, 128, 256}) do
  local fp32, amp = ips["h200_resnet50_fp32_bs" .. b .. "_run1"], ips["h200_resnet50_amp_bs" .. b .. "_run1"]
  local function sig(v) return string.format("%." .. math.max(0, 2 - math.floor(math.log10(v))) .. "f", v) end
  has("h200 amp bs" .. b, md, string.format("| precision | amp vs fp32 | h200 | resnet50 | %d | - | %s | %s | %.2f× " ..
    "(one run per side: no CI) | 1 (n=1) + 1 (n=1) |", b, sig(fp32), sig(amp), amp / fp32))
end

-- 2. A synthetic study that varies cudnn_benchmark (no GPU: a stand-in trainer).
local file = tmp .. "/report_knobs.db"
for _, f in ipairs({file, file .. "-wal", file .. "-shm"}) do os.remove(f) end
local IPS = {[false] = {100, 104, 96}, [true] = {120, 126, 114}}
local s = rlx.study{name = "knobs", db = file, label = "gpuknobs"}
for _, bench in ipairs({false, true}) do
  s:sweep{models = {"resnet18"}, batch = {8}, precision = {"fp32"}, repeats = 3, iters = 2, input = 32, classes = 10,
    device = "cuda:0", cudnn_benchmark = bench, quiet = true, trainer = function(o)
      local v = IPS[bench][tonumber(o.label:match("_run(%d+)"))]
      return {ok = true, images_per_s = v, iter_s = {mean = o.batch / v}, device = "cuda:0", precision = o.precision,
        cudnn_benchmark = bench}
    end}
end
local r = s:report{dir = tmp .. "/report_knobs", quiet = true}
s:close()
md = read(r.markdown)
has("synthetic varied", md, "Knobs varied: cudnn_benchmark;")
has("synthetic row", md, "| cudnn_benchmark | on vs off | gpuknobs | resnet18 | 8 | fp32 | 100 | 120 | 1.20× " ..
  "(95 % CI [1.07, 1.33]) | 3 + 3 |")
-- The two settings are two rows of Table 2, told apart by a column.
has("table 2 column", md, "| cuDNN benchmark |")
