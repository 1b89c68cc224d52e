-- rlx import-ncu: sums an Nsight Compute CSV (ncu --csv, or --page raw) per kernel and in total,
-- prints the summary, and with --run attaches the totals to that run of a study database with a
-- measured roofline point (counted FLOPs and bytes per iteration over the run's timed iteration).
local args = require("rlx.cli._args")
local data = require("rlx.studydb.data")
local M = {summary = "import an Nsight Compute CSV: FLOPs, DRAM bytes, time; attach to a run as a roofline point",
  synopsis = "import-ncu FILE.csv [--run LABEL --db PATH]"}

local cmd = {name = "import-ncu",
  usage = "rlx import-ncu FILE.csv [--run LABEL --db PATH [--study NAME] [--iterations N]] [--kernels] [--json]",
  description = "Reads FILE.csv written by `ncu --csv ...` (details page, also `ncu --import x.ncu-rep --csv`) or\n" ..
    "`ncu --csv --page raw ...`, checks each metric's unit kind, converts every metric to base units\n" ..
    "(Kbyte = 1000 bytes, nsecond = 1e-9 s), sums additive metrics per kernel and in total, and derives\n" ..
    "FLOPs (FP32 = fadd + fmul + 2 ffma, ...), DRAM bytes (read + write) and kernel seconds.\n" ..
    "With --run the totals are stored as counters (source ncu) of the run with that label, with a measured\n" ..
    "roofline point: FLOPs and bytes per iteration (totals / the run's counter_iters, or --iterations) over\n" ..
    "the run's mean timed iteration.",
  options = {
    {"run", "--run", metavar = "LABEL", help = "attach the totals to the run with this label"},
    {"db", "--db", metavar = "PATH", path = "database", help = "the study database holding the run (with --run)"},
    {"study", "--study", metavar = "NAME", help = "the study of the run, when several studies use the label"},
    {"iterations", "--iterations", type = "integer", min = 1, max = 1000000000, metavar = "N",
      help = "training iterations the CSV covers (default: the run's counter_iters)"},
    {"kernels", "--kernels", type = "boolean", help = "also print one line per kernel"},
    {"json", "--json", type = "boolean", help = "print the whole summary as JSON"},
  },
  positionals = {{"file", path = "file"}}}

local function usage(msg) args.usage_error("import-ncu", msg) end

-- The one run with the label (in --study when given).
local function find_run(db, o)
  local rows = db:runs{label = o.run, study = o.study}
  if #rows == 0 then
    rlx.fail(1, string.format("rlx import-ncu: no run labelled '%s'%s in %s; list the labels with: rlx runs %s",
      o.run, o.study and (" in study '" .. o.study .. "'") or "", o.db, o.db))
  end
  local names, seen = {}, {}
  for _, r in ipairs(rows) do
    if not seen[r.study] then names[#names + 1], seen[r.study] = r.study, true end
  end
  if #names > 1 then
    rlx.fail(1, string.format("rlx import-ncu: label '%s' is used in several studies (%s): add --study NAME",
      o.run, table.concat(names, ", ")))
  end
  return rows[1]
end

-- The peaks the run's environment measured, else the datasheet of its GPU.
local function peaks_of(db, run)
  local kind = data.kind_of(run.device)
  local p = db:peaks(run.environment_id, kind)
  if p then return p end
  if kind == "cuda" and run.gpu_name then
    local ok, entry = pcall(rlx.peaks.datasheet, run.gpu_name)
    if ok then return entry end
  end
  return nil
end

-- Stores the counters with the run and its measured roofline point: counted FLOPs and bytes per
-- iteration (totals / the iterations the CSV covers) over the run's mean timed iteration.
local function attach(o, s)
  local ok, db = pcall(rlx.db.open, o.db, {create = false})
  if not ok then args.fail("import-ncu", db) end
  local run = find_run(db, o)
  -- Without the number of iterations the CSV covers, totals cannot be put per iteration: the
  -- counters are stored, but no roofline point (main says how to get one).
  local n = o.iterations or run.counter_iters
  if type(n) ~= "number" or n < 1 then n = nil end
  local counters = rlx.counters._from_ncu(s, n)
  local points = {}
  if n and run.status == "ok" and type(run.iter_s) == "table" and run.iter_s.mean then
    points = rlx.roofline.for_run({iter_s = {mean = run.iter_s.mean}, precision = run.precision, counters = counters},
      {peaks = peaks_of(db, run)})
  end
  local stored = db:put_counters(run.id, counters, "ncu")
  local placed = #points > 0 and db:put_points(run.id, points) or 0
  db:close()
  return stored, run.study, placed, points, n
end

-- Seed 000's nvprof-era names (flop_count_sp, ...) -> "flop_count_sp (flops_fp32 = fadd + ...)".
local function nvprof_names()
  local out = {}
  for _, m in ipairs(rlx.counters.seed_metrics()) do
    if not (#m.current == 1 and m.current[1] == m.seed) then out[m.seed] = m.formula end
  end
  return out
end

--- Names every metric of the file that rlx cannot use, and every formula input it lacks.
function M.print_unusable(s)
  if #s.missing > 0 then print("  missing metrics (counted as 0): " .. table.concat(s.missing, ", ")) end
  local nvprof, old, other = nvprof_names(), {}, {}
  for _, name in ipairs(s.skipped_metrics or {}) do
    if nvprof[name] then old[#old + 1] = string.format("%s (now %s)", name, nvprof[name]) else other[#other + 1] = name end
  end
  if #old > 0 then
    print("  not used, nvprof-era names (current ncu rejects them; collect the current ones in " ..
      "code/metric_names_ncu.txt of rlx export --layout seed): " .. table.concat(old, ", "))
  end
  if #other > 0 then
    print("  not used, not additive (rlx sums only .sum metrics over kernels): " .. table.concat(other, ", "))
  end
  if #(s.unused_metrics or {}) > 0 then
    print("  not used, no rlx formula reads them (summed into values only): " .. table.concat(s.unused_metrics, ", "))
  end
end

function M.main(...)
  local o = args.parse(cmd, {...})
  if not o then return 0 end
  if o.run and not o.db then usage("--run needs --db PATH (the study database)") end
  if o.db and not o.run then usage("--db is only used with --run LABEL") end
  if o.iterations and not o.run then usage("--iterations is only used with --run LABEL") end
  local ok, s = pcall(rlx.counters.import_ncu, o.file)
  if not ok then args.fail("import-ncu", s, {fn = "rlx.counters.import_ncu"}) end
  local stored, study, placed, points, iterations
  if o.run then stored, study, placed, points, iterations = attach(o, s) end
  if o.json then
    if stored then s.stored = {run = o.run, study = study, rows = stored, roofline_points = points} end
    print(rlx.json.encode(s, 2))
    return 0
  end
  print(string.format("%s: %d kernel launches (%d distinct), %d process%s", o.file, s.kernels, #s.per_kernel,
    s.processes, s.processes == 1 and "" or "es"))
  local function line(k, v, unit) print(string.format("  %-18s %.6g %s", k, v, unit)) end
  for _, k in ipairs({"flops_fp32", "flops_fp16", "flops_fp64", "flops_tensor", "flops"}) do line(k, s[k], "FLOP") end
  for _, k in ipairs({"dram_read_bytes", "dram_write_bytes", "dram_bytes", "l2_bytes", "l1_bytes"}) do line(k, s[k], "byte") end
  if s.derived.pcie_bytes then line("pcie_bytes", s.derived.pcie_bytes, "byte") end
  line("seconds", s.seconds, "s")
  M.print_unusable(s)
  if o.kernels then
    for _, k in ipairs(s.per_kernel) do
      print(string.format("  %6d x %-60s %.6g FLOP %.6g byte %.6g s", k.count, k.name, k.flops, k.dram_bytes, k.seconds))
    end
  end
  if stored then print(string.format("stored %d counters with run '%s' (study '%s') in %s", stored, o.run, study, o.db)) end
  for _, p in ipairs(points or {}) do
    print(string.format("measured roofline point (ncu) %s: AI %.3g FLOP/byte, %.4g GFLOP/s%s", p.level, p.ai, p.gflops,
      p.bound and string.format(", %s-bound", p.bound) or ""))
  end
  if stored and placed == 0 and not iterations then
    io.stderr:write(string.format("rlx import-ncu: no roofline point for run '%s': it has no counted iterations (it " ..
      "ran before they existed, or with counter_iters = 0); import again with --iterations N, the training " ..
      "iterations %s covers\n", o.run, o.file))
  elseif stored and placed == 0 then
    print("no roofline point: the run has no timed iterations or the CSV no FLOPs and bytes")
  end
  return 0
end

M._cmd = cmd  -- its flags and positionals, for tests that walk every command (path_slots.sh)
return M
