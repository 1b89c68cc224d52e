-- rlx.counters: hardware counters. CUPTI range profiling on NVIDIA GPUs and perf_event on the CPU
-- (engine/counters, used by rlx.train{counters=true}), and the import of Nsight Compute's raw CSV.
-- Everything is in base units: bytes, seconds, FLOPs (docs/counters.md has the formulas).
local errors = require("rlx.errors")
local core = rlx._core.counters

local M = {}

--- import_ncu(path) -> {kernels, processes, flops_fp32, flops_fp16, flops_fp64, flops_tensor, flops,
--- dram_read_bytes, dram_write_bytes, dram_bytes, l2_bytes, l1_bytes, seconds, values, units,
--- derived, missing, skipped_metrics, per_kernel = {{name, count, values, flops..., seconds}}}
function M.import_ncu(path)
  local s = core.import_ncu(path)
  -- Refused here, for rlx import-ncu and rlx import-kit alike, before anything is stored.
  local over, value = M._overflowed(s)
  if over then
    errors.raise("rlx.counters.import_ncu", string.format("%s: the sum of %s is %s: its values are too large to " ..
      "be counts of one profile (a corrupt or edited CSV); nothing was stored: profile again with ncu --csv, or " ..
      "remove the rows with the huge values", tostring(path), over, tostring(value)))
  end
  return s
end

--- The first sum of an import_ncu summary s that is not a finite number ("dram_bytes", inf), and
--- its value; nil when all are. The sums are made in engine/counters/ncu_import (doubles): values
--- near 1e308 add up to inf, which was printed as "inf byte" and stored as a measured point with
--- AI 0 (issue 56 item 6).
function M._overflowed(s)
  local function bad(v) return type(v) == "number" and (v ~= v or v == math.huge or v == -math.huge) end
  for _, k in ipairs({"flops_fp32", "flops_fp16", "flops_fp64", "flops_tensor", "flops", "dram_read_bytes",
      "dram_write_bytes", "dram_bytes", "l2_bytes", "l1_bytes", "seconds"}) do
    if bad(s[k]) then return k, s[k] end
  end
  for _, t in ipairs({s.derived or {}, s.values or {}}) do
    local keys = {}
    for k in pairs(t) do keys[#keys + 1] = tostring(k) end
    table.sort(keys)
    for _, k in ipairs(keys) do if bad(t[k]) then return k, t[k] end end
  end
  for _, k in ipairs(s.per_kernel or {}) do
    for _, f in ipairs({"flops", "dram_bytes", "seconds"}) do
      if bad(k[f]) then return string.format("%s of kernel %s", f, tostring(k.name)), k[f] end
    end
  end
  return nil
end

--- The counters table stored with a run from an import_ncu summary s: the totals in base units,
--- and the derived quantities; derived.iterations is how many training iterations the CSV covers
--- (rlx import-ncu and rlx import-kit store this).
function M._from_ncu(s, iterations)
  local derived, du = {}, {}
  for _, k in ipairs({"flops_fp32", "flops_fp16", "flops_fp64", "flops_tensor", "flops", "dram_read_bytes",
      "dram_write_bytes", "dram_bytes", "l2_bytes", "l1_bytes", "pcie_bytes", "seconds", "kernels"}) do
    if s.derived[k] ~= nil then derived[k] = s.derived[k] end
  end
  derived.iterations = iterations
  for k in pairs(derived) do
    du[k] = k:match("bytes$") and "byte" or k:match("^flops") and "flop" or k == "seconds" and "second" or "count"
  end
  return {source = "ncu", values = s.values, units = s.units, derived = derived, derived_units = du, iterations = iterations}
end

--- list{device = "cpu"|"cuda"|"cuda:N", chip = "GH100"} -> {device, source, available, reason,
--- metrics = {{name, group, unit, supported, reason}}, chip, passes, groups}
function M.list(opts)
  return core.list(opts)
end

--- available(device = "cpu") -> {device, source, available, reason}
function M.available(device)
  return core.available(device)
end

--- measure(fn, {device = "cpu", groups = {...}, iters = 1}) -> the collector's result; fn() runs
--- iters times, each call one measured iteration.
function M.measure(fn, opts)
  return core.measure(fn, opts)
end

--- seed_metrics() -> {{seed, current = {names}, formula, note}}: seed 000's Nsight metric list
--- (code/metric_names_ncu.txt) name by name, with the names current ncu and CUPTI accept.
function M.seed_metrics()
  return core.seed_metrics()
end

--- The seed's metric list in current names, one comma-separated line (code/metric_names_ncu.txt
--- as `rlx export --layout seed` writes it; gpu__time_duration.sum added for kernel time).
function M.seed_metric_line()
  local names = {}
  for _, m in ipairs(core.seed_metrics()) do
    for _, n in ipairs(m.current) do names[#names + 1] = n end
  end
  names[#names + 1] = "gpu__time_duration.sum"
  return table.concat(names, ",")
end

--- The lines `rlx counters --list` prints for a list() result.
function M.format_list(l)
  local fname = "rlx.counters.format_list"
  errors.expect(fname, l, "table", "the table rlx.counters.list returns")
  for _, f in ipairs({{"device", "string"}, {"source", "string"}, {"metrics", "table", true}}) do
    if type(l[f[1]]) ~= f[2] and not (f[3] and l[f[1]] == nil) then
      errors.raise(fname, string.format("field '%s' must be a %s, got %s (pass the table rlx.counters.list returns)",
        f[1], f[2], type(l[f[1]])))
    end
  end
  local lines = {}
  local head = string.format("device %s (%s): %s", l.device, l.source,
    l.available and "available" or ("unavailable: " .. tostring(l.reason)))
  if l.name then head = head .. " [" .. l.name .. "]" end
  lines[#lines + 1] = head
  if l.chip then
    lines[#lines + 1] = string.format("chip %s: the valid metrics need %d pass%s in one configuration",
      l.chip, l.passes or 0, l.passes == 1 and "" or "es")
  end
  for _, m in ipairs(l.metrics or {}) do
    lines[#lines + 1] = string.format("  %-3s %-52s %-9s %s", m.supported and "yes" or "no", m.name, m.group,
      m.supported and (m.unit or "") or (m.reason or ""))
  end
  if l.groups then
    lines[#lines + 1] = "metric groups by pass count (CUPTI runs one pass per measured iteration):"
    for i, g in ipairs(l.groups) do
      local n = l.group_passes and l.group_passes[i] or 1
      lines[#lines + 1] = string.format("  %d (%d pass%s): %s", i, n, n == 1 and "" or "es", table.concat(g, " "))
    end
  end
  return lines
end

return M
