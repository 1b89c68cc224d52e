-- Two study databases of study "det", environments envA and envB, written through study:sweep
-- with a trainer that returns fixed images/s per repeat, so every number of the report can be
-- worked out by hand (tests/e2e/report/merged.sh). Complexity and roofline points are rlx's own
-- (rlx.model.summary of resnet18 at input 32, 10 classes). Usage: rlx run make_dbs.lua --set dir=D
local dir = assert(rlx.params.dir, "--set dir=")
os.remove(dir .. "/a.db")
os.remove(dir .. "/b.db")

-- images/s per environment, precision, batch, repeat; false = the run fails.
local IPS = {
  envA = {fp32 = {[4] = {100, 110, 120}, [16] = {200, 210, false}}, bf16 = {[4] = {150, 160, 170}}},
  envB = {fp32 = {[4] = {50, 55, 60}}},
}

local function trainer_for(env)
  return function(o)
    local n = tonumber(o.label:match("_run(%d+)$"))
    local v = IPS[env][o.precision][o.batch][n]
    if not v then return {ok = false, error = "out of memory (test)"} end
    local r = {ok = true, images_per_s = v, iter_s = {mean = o.batch / v, sd = 0}, seconds = o.iters * o.batch / v,
      device = "cpu", precision = o.precision, batch = o.batch, max_rss_bytes = 2 * 136340152,
      -- One layout for every run, whatever this machine's calibration chose for each precision (the
      -- report shows a layout column only when rows differ in it).
      memory_format = "contiguous"}
    if env == "envA" and o.precision == "fp32" and o.batch == 4 then
      -- Run 2 never settled: its iteration time drifted 12 % between the halves.
      r.stability = {stable = n ~= 2, drift = n == 2 and 0.12 or 0.01, cv = 0.05}
    end
    if env == "envB" and n == 1 then
      -- Imported-counter style totals over 2 counted iterations: 1.2 GFLOP and 0.5 GB each.
      r.counters = {source = "ncu", values = {}, derived = {flops = 2.4e9, dram_bytes = 1e9, seconds = 0.2,
        iterations = 2}}
    end
    return r
  end
end

local function make(env, file, matrix)
  local s = rlx.study{name = "det", db = dir .. "/" .. file, label = env}
  if env == "envA" then s:store_peaks({dram_gbps = 20, fp32_gflops = 100, gemm_bf16_gflops = 50}, {device = "cpu"}) end
  for _, m in ipairs(matrix) do
    s:sweep{models = {"resnet18"}, precision = m.precision, batch = m.batch, repeats = 3, iters = 5, warmup = 1,
      input = 32, classes = 10, trainer = trainer_for(env), quiet = true}
  end
  s:close()
end

make("envA", "a.db", {{precision = {"fp32"}, batch = {4, 16}}, {precision = {"bf16"}, batch = {4}}})
make("envB", "b.db", {{precision = {"fp32"}, batch = {4}}})
print("made")
