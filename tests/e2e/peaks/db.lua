-- rlx peaks --db: the measured peaks land in the study database with their spread.
local path = os.getenv("RLX_TEST_TMP") .. "/peaks_cli.db"
os.remove(path)
assert(require("rlx.cli.peaks").main("--quick", "--repeats", "2", "--only", "fp64,dram", "--db", path) == 0)
local study = rlx.study{name = "peaks_cli", db = path}
local p = study:peaks("cpu")
print("stored fp64", p.fp64_gflops > 0, "dram", p.dram_gbps > 0, "unit", p.units.fp64_gflops, p.units.dram_gbps,
  "spread", type(p.spread.fp64_gflops), "source", p.source)
study:close()
