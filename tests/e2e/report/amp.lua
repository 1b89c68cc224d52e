-- A CUDA environment's report has AMP rows (issue 13): fp32 {95, 105} and amp {145, 155} images/s
-- at batch 8 from a stand-in trainer on device cuda:0 (no GPU needed: nothing is trained).
-- Speedup 150 / 100 = 1.50; u_a = 50 / (2 x 150²) = 0.0011111, u_b = 50 / (2 x 100²) = 0.0025;
-- df = 0.0036111² / (0.0011111² + 0.0025²) = 1.742; t = 12.706 + (4.303 - 12.706)(1 - 1/1.742)/(1 - 1/2)
-- = 5.546; half = 5.546 x 1.5 x sqrt(0.0036111) = 0.4999: [1.00, 2.00].
local tmp = os.getenv("RLX_TEST_TMP") or "/tmp"
local db = tmp .. "/report_amp.db"
for _, f in ipairs({db, db .. "-wal", db .. "-shm"}) do os.remove(f) end
local IPS = {fp32 = {95, 105}, amp = {145, 155}}
local s = rlx.study{name = "amp", db = db, label = "gpuenv"}
s:sweep{models = {"resnet18"}, batch = {8}, precision = {"fp32", "amp"}, repeats = 2, iters = 2, input = 32,
  classes = 10, device = "cuda:0", quiet = true, trainer = function(o)
    local v = IPS[o.precision][tonumber(o.label:match("_run(%d+)$"))]
    return {ok = true, images_per_s = v, iter_s = {mean = o.batch / v}, device = "cuda:0", precision = o.precision}
  end}
local out = s:report{dir = tmp .. "/report_amp", quiet = true}
local f = assert(io.open(out.markdown))
local md = f:read("*a")
f:close()
print(md:find("| gpuenv | resnet18 | 8 | amp | 100 | 150 | 1.50× (95% CI [1.00, 2.00]) | 1.7 | 2 + 2 |", 1, true) ~= nil,
  md:find("No CUDA environment", 1, true) == nil, md:find("| gpuenv | cuda |", 1, true) ~= nil)
