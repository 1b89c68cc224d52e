-- rlx peaks: measures this machine's peaks (or prints datasheet entries) for the roofline.
local args = require("rlx.cli._args")
local M = {summary = "measure CPU/GPU peaks (bandwidth, FLOP/s) for rooflines; datasheet GPU figures",
  synopsis = "peaks [--device cpu|cuda] [--json] [--db PATH]"}

local cmd = {name = "peaks", usage = "rlx peaks [--device cpu|cuda] [--json] [--db PATH] [options]",
  description = "Measures the peaks of this machine: on the CPU, DRAM bandwidth (STREAM triad on all\n" ..
    "cores), the compute roof of each precision (FP32/FP64 FMA chains in the widest vector ISA:\n" ..
    "AVX-512 or AVX2 on x86-64, SVE or NEON on arm64; bf16 VDPBF16PS chains where the CPU has\n" ..
    "avx512_bf16, BFDOT chains on arm64 with bf16, else the FP32 FMA peak labelled emulated; AMX\n" ..
    "tiles where it has AMX, BFMMLA on arm64 with bf16: figure bf16_amx), L1/L2/L3 read bandwidth\n" ..
    "and LibTorch GEMM (fp32, bf16: the second ceiling); under an emulator (qemu) rlx says so and\n" ..
    "the figures are the emulator's. On CUDA: device-to-device copy bandwidth, L2 read bandwidth and\n" ..
    "GEMM per precision. Each figure is the best of --repeats runs, with median and spread, measured\n" ..
    "again (at most --remeasure more times) while the spread is above 10 %. Units: decimal GB/s and\n" ..
    "GFLOP/s. The first line says whether the measurement was quick (--quick) or full.\n" ..
    "--datasheet NAME and --list print published GPU figures instead of measuring.",
  options = {
    {"device", "--device", one_of = rlx.model.DEVICE_KINDS, default = "cpu", help = "what to measure"},
    {"repeats", "--repeats", type = "integer", min = 1, max = 100, default = 5,
      help = "timed runs per figure (at most 100: a figure takes seconds per run)"},
    {"quick", "--quick", type = "boolean", help = "small sizes, short runs (smoke test; noisier)"},
    {"threads", "--threads", type = "integer", min = 1, max = 4096, help = "CPU threads (default: one per core)"},
    {"remeasure", "--remeasure", type = "integer", min = 0, max = 10, default = 2,
      help = "CPU: measure a figure again, at most N more times, while its spread is above 10 %"},
    {"clock", "--clock", one_of = {"cpu", "wall"}, default = "wall",
      help = "CPU kernels timed by thread CPU time or wall time"},
    {"only", "--only", metavar = "LIST", help = "comma-separated figures, e.g. dram,fp64 (cpu: dram fp32 " ..
      "fp64 bf16 bf16_amx gemm_fp32 gemm_bf16 l1 l2 l3; cuda: dram l2 gemm_fp32 gemm_tf32 gemm_fp16 gemm_bf16)"},
    {"json", "--json", type = "boolean", help = "print one JSON object"},
    {"db", "--db", metavar = "PATH", path = "database", help = "also store the peaks with this environment in a study database"},
    {"datasheet", "--datasheet", metavar = "NAME", help = "print the datasheet entry for a device name"},
    {"list", "--list", type = "boolean", help = "list the datasheet entries"},
  }}

local ORDER = {
  {"dram_gbps", "DRAM bandwidth", "GB/s"}, {"l1_gbps", "L1 bandwidth", "GB/s"}, {"l2_gbps", "L2 bandwidth", "GB/s"},
  {"l3_gbps", "L3 bandwidth", "GB/s"}, {"fp64_gflops", "FP64 FMA peak", "GFLOP/s"},
  {"fp32_gflops", "FP32 FMA peak", "GFLOP/s"}, {"bf16_gflops", "BF16 peak", "GFLOP/s"},
  {"bf16_tensor_gflops", "BF16 AMX peak", "GFLOP/s"}, {"gemm_fp32_gflops", "GEMM fp32", "GFLOP/s"},
  {"gemm_tf32_gflops", "GEMM tf32", "GFLOP/s"}, {"gemm_fp16_gflops", "GEMM fp16", "GFLOP/s"},
  {"gemm_bf16_gflops", "GEMM bf16", "GFLOP/s"},
}

local function print_entry(e)
  print(e.name .. "  (" .. (e.architecture or "") .. ")")
  local fields = {"fp64_gflops", "fp64_tensor_gflops", "fp32_gflops", "fp16_gflops", "bf16_gflops",
    "tf32_tensor_gflops", "fp16_tensor_gflops", "bf16_tensor_gflops", "dram_gbps"}
  for _, f in ipairs(fields) do
    if e[f] then print(string.format("  %-20s %12.1f %s", f, e[f], f:match("gbps$") and "GB/s" or "GFLOP/s")) end
  end
  print("  matches: " .. table.concat(e.match or {}, ", "))
  print("  source:  " .. e.source)
  if e.notes then print("  notes:   " .. e.notes) end
end

--- The study that `--db PATH` stores the peaks with, opened before anything is measured: a path
--- that is no study database (a typo, a CSV) fails at once instead of after the measurement, and
--- a database that holds no study yet gets a warning, since a study elsewhere would not see the
--- peaks. Peaks belong to the environment: they go in with the database's study (the first, when
--- it holds several; one named after the file when none), and no other study is added.
function M.open_db(path)
  rlx.fs.check_outputs("peaks", {{path, "database", {what = "--db"}}})
  local present, size = pcall(rlx.fs.check_file, path, {what = "--db", missing_ok = true})
  if not present then args.fail("peaks", size) end
  size = size or 0
  local names = {}
  if size > 0 then
    local ok, db = pcall(rlx.db.open, path, {readonly = true})
    if not ok then args.fail("peaks", db) end
    names = db:study_names()
    db:close()
  end
  if #names == 0 then
    io.stderr:write(string.format("rlx peaks: warning: %s holds no study (a new database, or a typo?): the peaks are " ..
      "stored there for the studies it will hold; a study's database is results/<study>.db\n", path))
  end
  local name = names[1] or path:match("([^/]+)%.db$") or path:match("([^/]+)$") or "peaks"
  local ok, study = pcall(rlx.study, {name = name, db = path})
  if not ok then args.fail("peaks", study) end
  return study
end

function M.main(...)
  local o = args.parse(cmd, {...})
  if not o then return 0 end
  if o.list then
    for _, n in ipairs(rlx.peaks.list()) do print(n) end
    return 0
  end
  if o.datasheet then
    local e = rlx.peaks.datasheet(o.datasheet)
    if not e then rlx.fail(1, "rlx peaks: no datasheet entry matches '" .. o.datasheet .. "' (see rlx peaks --list)") end
    if o.json then print(rlx.json.encode(e)) else print_entry(e) end
    return 0
  end
  local only
  if o.only then
    only = {}
    for f in o.only:gmatch("[^,]+") do only[#only + 1] = f end
  end
  local study = o.db and M.open_db(o.db)  -- before the measurement: a wrong --db costs no minutes
  local cpu = o.device == "cpu"
  local ok, p = pcall(rlx.peaks.measure, {device = o.device, repeats = o.repeats, quick = o.quick or nil,
    threads = o.threads, only = only, clock = cpu and o.clock or nil, remeasure = cpu and o.remeasure or nil})
  if not ok then args.fail("peaks", p) end
  if study then
    local stored, err = pcall(study.store_peaks, study, p, {device = p.device, source = "measured"})
    if not stored then args.fail("peaks", err) end
    study:close()
  end
  if o.json then
    print(rlx.json.encode(p))
    return 0
  end
  print(string.format("%s (%s, %s threads%s%s)", p.name or p.device, p.isa or p.device,
    tostring(p.threads or 1), p.clock and (", " .. p.clock .. " clock") or "",
    p.quick and ", quick measurement, below a full one" or ", full measurement"))
  if p.emulation then
    print(string.format("  emulated (%s): these are the emulator's figures on this host, not an arm64 CPU's", p.emulation))
  end
  for _, f in ipairs(ORDER) do
    local st = p.stats[f[1]]
    if st then
      local d = p.details and p.details[f[1]]
      local gt = p.gemm_threads and p.gemm_threads[f[1]]
      local name = f[2]
      if f[1] == "bf16_gflops" then
        name = (p.copied_from or {}).bf16_gflops and "BF16 emulated" or rlx.roofline.roof_label(p, f[1])
      end
      if f[1] == "bf16_tensor_gflops" then name = rlx.roofline.roof_label(p, f[1]) .. " peak" end
      if f[1] == "gemm_bf16_gflops" and p.bf16_emulated == 1 then name = "GEMM bf16 (emul.)" end
      local attempts = (st.attempts or 1) > 1 and string.format(", %d attempts", st.attempts) or ""
      local clocks = ""
      if d and d.wall_clock_best then clocks = string.format("  wall clock %.1f", d.wall_clock_best) end
      if d and d.cpu_share then
        clocks = clocks .. string.format("%s cpu share %.2f", clocks ~= "" and "," or " ", d.cpu_share)
      end
      print(string.format("  %-17s %10.1f %-8s median %10.1f  spread %5.1f%%  (best of %d%s)%s%s", name, st.best, f[3],
        st.median, st.spread_pct, st.repeats, attempts, clocks,
        gt and string.format("  on %d thread%s", gt, gt == 1 and "" or "s") or ""))
    end
  end
  for _, f in ipairs(ORDER) do
    if p.warnings and p.warnings[f[1]] then print(string.format("  warning: %s: %s", f[1], p.warnings[f[1]])) end
  end
  for _, f in ipairs(ORDER) do
    if p.missing and p.missing[f[1]] then print(string.format("  not measured: %s: %s", f[1], p.missing[f[1]])) end
  end
  if p.bf16_emulated == 1 then
    print("  bf16: emulated on this CPU (no bf16 instructions: avx512_bf16 or AMX on x86-64, bf16 on arm64): " ..
      "its roof is the FP32 FMA peak")
  end
  if p.datasheet then
    print(string.format("  datasheet: %s, fp32 %.0f GFLOP/s, DRAM %.0f GB/s (%s)", p.datasheet.name,
      p.datasheet.fp32_gflops or 0, p.datasheet.dram_gbps or 0, p.datasheet.source))
  end
  print(string.format("  measured in %.1f s%s", p.seconds, o.db and (", stored in " .. o.db) or ""))
  return 0
end

M._cmd = cmd  -- its flags and positionals, for tests that walk every command (path_slots.sh)
return M
