-- attach.lua: rlx import-ncu --run LABEL --db PATH stores the fixture's totals with that run.
local dir = os.getenv("RLX_TEST_TMP") or "/tmp"
local src = os.getenv("RLX_SOURCE_DIR") or "."
local path = dir .. "/counters_attach.db"
os.remove(path)
local st = rlx.study{name = "ncu-test", db = path}
st:store_run({model = "resnet18", batch = 2, precision = "fp32"}, {ok = true, iter_s = {mean = 0.1}}, {label = "r18-b2"})
st:close()
require("rlx.cli.import_ncu").main(src .. "/tests/fixtures/ncu/two_processes.csv", "--run", "r18-b2", "--db", path)
local db = rlx.db.open(path)
for _, r in ipairs(db:query([[SELECT c.name, c.value, c.unit, c.source FROM counters c JOIN runs r ON r.id = c.run_id
    WHERE r.label = 'r18-b2' AND c.name IN ('flops_fp32', 'dram_bytes', 'dram__bytes_read.sum', 'seconds')
    ORDER BY c.name]])) do
  print(r.name, string.format("%.6g", r.value), r.unit, r.source)
end
db:close()
