-- missing_label.lua: rlx import-ncu --run with a label no run has: exit 1 naming the label, nothing stored.
local dir = os.getenv("RLX_TEST_TMP") or "/tmp"
local src = os.getenv("RLX_SOURCE_DIR") or "."
local path = dir .. "/counters_missing_label.db"
os.remove(path)
local st = rlx.study{name = "ncu-test", db = path}
st:close()
require("rlx.cli.import_ncu").main(src .. "/tests/fixtures/ncu/two_processes.csv", "--run", "nope", "--db", path)
