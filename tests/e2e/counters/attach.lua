-- attach.lua: rlx import-ncu --run LABEL --db PATH stores the fixture's totals with that run and a
-- measured roofline point tagged ncu: FLOPs and bytes per iteration (totals / the run's 2 counted
-- iterations) over the run's mean timed iteration (0.1 s). A run without counted iterations gets
-- the counters but no point (stderr says to import again with --iterations N), then a point with it.
local dir = os.getenv("RLX_TEST_TMP") or "/tmp"
local src = os.getenv("RLX_SOURCE_DIR") or "."
local path = dir .. "/counters_attach.db"
for _, x in ipairs({"", "-wal", "-shm"}) do os.remove(path .. x) end
local st = rlx.study{name = "ncu-test", db = path}
st:store_run({model = "resnet18", batch = 2, precision = "fp32"},
  {ok = true, iter_s = {mean = 0.1}, counter_iters = 2}, {label = "r18-b2"})
st:store_run({model = "resnet18", batch = 4, precision = "fp32"}, {ok = true, iter_s = {mean = 0.2}}, {label = "old"})
st:close()
local csv = src .. "/tests/fixtures/ncu/two_processes.csv"
require("rlx.cli.import_ncu").main(csv, "--run", "r18-b2", "--db", path)
local db = rlx.db.open(path)
for _, r in ipairs(db:query([[SELECT c.name, c.value, c.unit, c.source FROM counters c JOIN runs r ON r.id = c.run_id
    WHERE r.label = 'r18-b2' AND c.name IN ('flops_fp32', 'dram_bytes', 'dram__bytes_read.sum', 'seconds', 'iterations')
    ORDER BY c.name]])) do
  print(r.name, string.format("%.6g", r.value), r.unit, r.source)
end
-- Totals: 8,215,506 FLOP and 10,407,000 DRAM bytes over 2 iterations -> 4,107,753 FLOP and
-- 5,203,500 B per iteration: AI 0.789421, 4,107,753 / 0.1 s = 0.04107753 GFLOP/s.
for _, p in ipairs(db:points{source = "measured", level = "dram"}) do
  print(p.label, p.level, p.counters_source, string.format("%.6g %.6g %.6g %.7g", p.flops, p.bytes, p.ai, p.gflops),
    p.seconds)
end
db:close()
require("rlx.cli.import_ncu").main(csv, "--run", "old", "--db", path)
db = rlx.db.open(path)
print("old points", #db:points{source = "measured", level = "dram"})
db:close()
require("rlx.cli.import_ncu").main(csv, "--run", "old", "--db", path, "--iterations", "4")
db = rlx.db.open(path)
for _, p in ipairs(db:points{source = "measured", level = "dram"}) do
  if p.label == "old" then print(p.label, string.format("%.6g %.7g", p.flops, p.gflops)) end
end
db:close()
