-- rlx import-ncu: sums an Nsight Compute raw CSV (ncu --csv --page raw) per kernel and in total,
-- prints the summary, and with --run attaches the totals to that run of a study database.
local args = require("rlx.cli.args")
local M = {summary = "import an Nsight Compute raw CSV: FLOPs, DRAM bytes, time; attach to a run",
  synopsis = "import-ncu FILE.csv [--run LABEL --db PATH]"}

local cmd = {name = "import-ncu", usage = "rlx import-ncu FILE.csv [--run LABEL --db PATH [--study NAME]] [--json]",
  description = "Reads FILE.csv written by `ncu --csv --page raw ...`, converts every metric to base units\n" ..
    "(Kbyte = 1000 bytes, nsecond = 1e-9 s), sums additive metrics per kernel and in total, and derives\n" ..
    "FLOPs (FP32 = fadd + fmul + 2 ffma, ...), DRAM bytes (read + write) and kernel seconds.\n" ..
    "With --run the totals are stored as counters (source ncu) of the run with that label.",
  options = {
    {"run", "--run", metavar = "LABEL", help = "attach the totals to the run with this label"},
    {"db", "--db", metavar = "PATH", help = "the study database holding the run (with --run)"},
    {"study", "--study", metavar = "NAME", help = "the study of the run, when several studies use the label"},
    {"kernels", "--kernels", type = "boolean", help = "also print one line per kernel"},
    {"json", "--json", type = "boolean", help = "print the whole summary as JSON"},
  },
  positionals = {{"file"}}}

local function usage(msg) args.usage_error("import-ncu", msg) end

-- The counters table stored with a run: the totals in base units, and the derived quantities.
local function counters_of(s)
  local derived, du = {}, {}
  for _, k in ipairs({"flops_fp32", "flops_fp16", "flops_fp64", "flops_tensor", "flops", "dram_read_bytes",
      "dram_write_bytes", "dram_bytes", "l2_bytes", "l1_bytes", "seconds", "kernels"}) do
    if s.derived[k] ~= nil then derived[k] = s.derived[k] end
  end
  for k in pairs(derived) do
    du[k] = k:match("bytes$") and "byte" or k:match("^flops") and "flop" or k == "seconds" and "second" or "count"
  end
  return {source = "ncu", values = s.values, units = s.units, derived = derived, derived_units = du}
end

local function attach(o, s)
  -- The run must already be there: never create a database (or its directory) here.
  local opened, db = pcall(rlx.db.open, o.db, {create = false})
  if not opened then args.fail("import-ncu", db) end
  local rows
  if o.study then
    rows = db:query("SELECT DISTINCT study FROM runs WHERE label = ? AND study = ?", o.run, o.study)
  else
    rows = db:query("SELECT DISTINCT study FROM runs WHERE label = ?", o.run)
  end
  db:close()
  if #rows == 0 then
    rlx.fail(1, string.format("rlx import-ncu: no run labelled '%s'%s in %s; list the labels with: rlx runs %s",
      o.run, o.study and (" in study '" .. o.study .. "'") or "", o.db, o.db))
  end
  if #rows > 1 then
    local names = {}
    for _, r in ipairs(rows) do names[#names + 1] = r.study end
    rlx.fail(1, string.format("rlx import-ncu: label '%s' is used in several studies (%s): add --study NAME",
      o.run, table.concat(names, ", ")))
  end
  local study = rlx.study{name = rows[1].study, db = o.db}
  local ok, n = pcall(study.attach_counters, study, o.run, counters_of(s), {source = "ncu"})
  study:close()
  if not ok then args.fail("import-ncu", n) end
  return n, rows[1].study
end

function M.main(...)
  local o = args.parse(cmd, {...})
  if not o then return 0 end
  if o.run and not o.db then usage("--run needs --db PATH (the study database)") end
  if o.db and not o.run then usage("--db is only used with --run LABEL") end
  local ok, s = pcall(rlx.counters.import_ncu, o.file)
  if not ok then args.fail("import-ncu", s, {fn = "rlx.counters.import_ncu"}) end
  local stored, study
  if o.run then stored, study = attach(o, s) end
  if o.json then
    if stored then s.stored = {run = o.run, study = study, rows = stored} end
    print(rlx.json.encode(s, 2))
    return 0
  end
  print(string.format("%s: %d kernel launches (%d distinct), %d process%s", o.file, s.kernels, #s.per_kernel,
    s.processes, s.processes == 1 and "" or "es"))
  local function line(k, v, unit) print(string.format("  %-18s %.6g %s", k, v, unit)) end
  for _, k in ipairs({"flops_fp32", "flops_fp16", "flops_fp64", "flops_tensor", "flops"}) do line(k, s[k], "FLOP") end
  for _, k in ipairs({"dram_read_bytes", "dram_write_bytes", "dram_bytes", "l2_bytes", "l1_bytes"}) do line(k, s[k], "byte") end
  line("seconds", s.seconds, "s")
  if #s.missing > 0 then print("  missing metrics (counted as 0): " .. table.concat(s.missing, ", ")) end
  if o.kernels then
    for _, k in ipairs(s.per_kernel) do
      print(string.format("  %6d x %-60s %.6g FLOP %.6g byte %.6g s", k.count, k.name, k.flops, k.dram_bytes, k.seconds))
    end
  end
  if stored then print(string.format("stored %d counters with run '%s' (study '%s') in %s", stored, o.run, study, o.db)) end
  return 0
end

return M
