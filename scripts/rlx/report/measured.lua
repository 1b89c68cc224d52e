-- rlx.report.measured: the measurement tables seed 000 §11 asks for beyond throughput (§4.3-4.6 of
-- report.md): where each iteration's time goes, achieved bandwidth, CPU counters (IPC, CPI, cache
-- misses), PCIe traffic and cost per 1,000 images. Rows are rlx.studydb.data's groups (one per full
-- configuration, with lead.lead_cells' columns), means over the runs compute.used keeps (unsteady
-- and contended runs left out); every value is a stored run field or counter.
local md = require("rlx.report.md")
local data = require("rlx.studydb.data")
local compute = require("rlx.report.compute")
local lead = require("rlx.report.lead")
local stats = require("rlx.stats")
local M = {}

local function num(v) return type(v) == "number" and v == v and v or nil end

-- Mean over a group's used runs of f(run) (runs where f gives nil are left out), and how many counted.
local function mean_of(g, f)
  local xs = {}
  for _, r in ipairs((compute.used(g))) do
    local v = num(f(r))
    if v then xs[#xs + 1] = v end
  end
  return stats.mean(xs), #xs
end

-- A row of a table without an n column: a row resting on one run is marked in its Runs cell
-- (issue 45: n = 1 rows read as sure as the others).
local function row(g, cells, ctx)
  local out = lead.extend(lead.lead_cells(ctx.D, g), cells)
  out[#out + 1] = ctx.ref(g) .. (compute.throughput(g).n == 1 and " (n=1)" or "")
  return out
end

-- A table whose rows start with lead.lead_cells: its headers and alignments after the lead ones.
local function table_of(ctx, headers, rows, align)
  local h, a = lead.lead_headers(ctx.D)
  return md.table(lead.extend(h, headers), rows, lead.extend(a, align))
end

local function result_of(r) return type(r.result) == "table" and r.result or {} end

-- Per timed iteration: data wait and the rest (compute: forward, backward, optimizer step).
local function per_iter(r, field)
  local iters, v = num(r.iters), num(r[field])
  if not iters or iters <= 0 or not v then return nil end
  return v / iters
end

local function compute_s(r)
  local wait = per_iter(r, "data_wait_s")
  local total = per_iter(r, "seconds")
  return total and wait and total - wait or nil
end

--- A group's peak memory: rlx.report.compute.peak_memory, the one owner (§6.4 and the REPL's
--- study:table2() read it too).
M.peak_memory = compute.peak_memory

--- §4.3: where a timed iteration's time goes, per configuration (mean over repeats).
function M.time_breakdown(ctx)
  local rows, its, waits = {}, {}, {}
  local cols = {}
  for _, g in ipairs(ctx.D.groups) do
    local c = {g = g}
    c.it = mean_of(g, function(r) return r.iter_mean_s end)
    c.comp = mean_of(g, compute_s)
    c.wait = mean_of(g, function(r) return per_iter(r, "data_wait_s") end)
    -- CPU seconds per timed iteration, in the iteration's unit (issue 34 mixed ms with section seconds).
    c.user = mean_of(g, function(r) return per_iter(r, "user_s") end)
    c.sys = mean_of(g, function(r) return per_iter(r, "sys_s") end)
    c.busy = mean_of(g, function(r)
      local w = num(result_of(r).wall_s)
      return (w and w > 0 and num(r.user_s) and num(r.sys_s)) and (r.user_s + r.sys_s) / w or nil
    end)
    c.mem, c.what = M.peak_memory(g)
    cols[#cols + 1] = c
    its[#its + 1] = c.it
    if c.wait then waits[#waits + 1] = c.wait end
  end
  local unit, f = md.time_unit(its)
  local wait_unit, wf = md.time_unit(waits)
  if #waits > 0 and stats.median(waits) < 1e-3 then wait_unit, wf = "µs", 1e6 end
  local max_share, max_g, busy_lo, busy_hi = nil, nil, nil, nil
  for _, c in ipairs(cols) do
    local share = (c.wait and c.it and c.it > 0) and c.wait / c.it or nil
    if share and (not max_share or share > max_share) then max_share, max_g = share, c.g end
    if c.busy then busy_lo, busy_hi = math.min(busy_lo or c.busy, c.busy), math.max(busy_hi or c.busy, c.busy) end
    rows[#rows + 1] = row(c.g, {md.sig(c.it and c.it * f, 3), md.sig(c.comp and c.comp * f, 3),
      md.sig(c.wait and c.wait * wf, 3), md.share(share), md.sig(c.user and c.user * f, 3),
      md.sig(c.sys and c.sys * f, 3), md.fixed(c.busy, 2), c.mem and (md.mb(c.mem) .. " (" .. md.mib(c.mem) .. ")") or "-",
      c.what or "-"}, ctx)
  end
  ctx.doc:para("### " .. M.next_number(ctx) .. " Time breakdown")
  if #rows == 0 then ctx.doc:para("No successful runs: no breakdown.") return end
  local where = ctx.to_appendix("Time breakdown per configuration", {"Per timed iteration, mean over repeats. " ..
    "Compute = iteration − data wait (forward, backward and the optimizer step together: rlx times whole " ..
    "iterations, so the optimizer step has no time of its own; its FLOPs are in Table 1b). Data wait = time the " ..
    "training thread waited for a batch (and, on CUDA, its copy to the device). User and system = CPU seconds of " ..
    "the process over the timed section (`getrusage`, as `/usr/bin/time` reports them) divided by its " ..
    "iterations, in the iteration's unit; CPU / wall = (user + system) / wall seconds of that section: the cores " ..
    "kept busy. Peak memory, mean over every ok run (as §6.4): the CUDA allocator's peak on GPUs, the process's " ..
    "peak RSS on CPUs (" .. md.MEMORY_UNITS .. "):",
    table_of(ctx, {"Iteration (" .. unit .. ")", "Compute (" .. unit .. ")", "Data wait (" .. wait_unit .. ")",
      "Data wait share", "User CPU (" .. unit .. ")", "System CPU (" .. unit .. ")", "CPU / wall",
      "Peak memory, MB (MiB)", "Measured as", "Runs"}, rows,
      {"r", "r", "r", "r", "r", "r", "r", "r", "l", "l"})})
  local facts = {}
  if max_share then
    facts[#facts + 1] = string.format("the data wait is at most %s of an iteration (%s)", md.share(max_share),
      ctx.describe(max_g))
  end
  if busy_lo then
    local lo, hi = md.fixed(busy_lo, 2), md.fixed(busy_hi, 2)
    facts[#facts + 1] = string.format("the timed sections kept %s busy (CPU / wall)",
      lo == hi and (lo .. " cores") or (lo .. " to " .. hi .. " cores"))
  end
  ctx.doc:para(string.format("Per timed iteration: compute, data wait, CPU time and peak memory of every " ..
    "configuration are in %s.%s", where, #facts > 0 and (" Over the study, " .. table.concat(facts, "; ") .. ".") or ""))
end

-- The DRAM points of a group, measured ones when any run has one (as Table 2 does).
local function dram_points(D, g)
  local pts, measured = {}, false
  for _, r in ipairs((compute.used(g))) do
    local p = data.point_of(D, r)
    if p and num(p.bytes) and num(p.seconds) and p.seconds > 0 then
      pts[#pts + 1] = p
      measured = measured or p.source == "measured"
    end
  end
  local out = {}
  for _, p in ipairs(pts) do
    if (p.source == "measured") == measured then out[#out + 1] = p end
  end
  return out, measured and "measured" or "estimated"
end

--- §4.4: achieved DRAM bandwidth = bytes per iteration / seconds per iteration.
function M.bandwidth(ctx)
  local D, rows, best, sources = ctx.D, {}, nil, {}
  for _, g in ipairs(D.groups) do
    local pts, source = dram_points(D, g)
    if #pts > 0 then
      local gb, gbps = {}, {}
      for i, p in ipairs(pts) do gb[i], gbps[i] = p.bytes / 1e9, p.bytes / p.seconds / 1e9 end
      local roof = compute.roofline(D, g)
      local peak = roof and roof.peak_gbps
      local m = stats.mean(gbps)
      -- An emulated environment's share of its roof is no efficiency (issue 55).
      local emulated = roof and roof.emulator
      rows[#rows + 1] = row(g, {md.sig(stats.mean(gb), 4), md.mean_sd_sig(m, stats.sd(gbps), 3), source,
        md.sig(peak, 4), emulated and "- (emulated)" or (peak and peak > 0) and md.pct(m / peak, 1) or "-"}, ctx)
      local share = (peak and peak > 0 and not emulated) and m / peak or nil
      if share and (not best or share > best.share) then best = {share = share, g = g, gbps = m, source = source} end
      sources[source] = true
    end
  end
  ctx.doc:para("### " .. M.next_number(ctx) .. " Achieved bandwidth")
  if #rows == 0 then
    ctx.doc:para("No run has a DRAM roofline point (bytes per iteration): no achieved bandwidth.")
    ctx.missing[#ctx.missing + 1] = "no DRAM bytes per iteration: no achieved bandwidth"
    return
  end
  local where = ctx.to_appendix("Achieved DRAM bandwidth per configuration", {"Achieved GB/s = DRAM bytes per " ..
    "iteration ÷ seconds per iteration (GB = 1e9 bytes), mean ± SD over repeats. **Measured** bytes are hardware " ..
    "counters (CUPTI, perf or an imported Nsight Compute CSV: `dram__bytes_read.sum + dram__bytes_write.sum`); " ..
    "**estimated** bytes are rlx's analytic minimum traffic (every tensor crossing the memory bus once per use, " ..
    "docs/complexity.md), so an estimated figure is a lower bound on the real traffic. Peak = the DRAM roof of §5:",
    table_of(ctx, {"Bytes / iteration (GB)", "Achieved GB/s", "Bytes", "Peak GB/s", "Of peak", "Runs"}, rows,
      {"r", "r", "l", "r", "r", "l"})})
  local est = sources.estimated and not sources.measured
  ctx.doc:para(string.format("Achieved DRAM bandwidth = bytes per iteration ÷ seconds per iteration, per " ..
    "configuration in %s%s.%s", where, est and " (estimated bytes: rlx's analytic minimum traffic, so each figure " ..
    "is a lower bound)" or "", best and string.format(" The highest share of the DRAM roof: %s GB/s, %s of it (%s).",
      md.sig(best.gbps, 3), md.pct(best.share, 1), ctx.describe(best.g)) or ""))
end

-- The counter values of a run from one source ("perf_event", ...): {name = value}.
local function counter_values(D, run, source)
  local out
  for _, c in ipairs(D.counters[run.id] or {}) do
    if c.source == source or c.source == source .. ":derived" then
      out = out or {}
      out[c.name] = c.value
    end
  end
  return out
end

--- The next §4 subsection's number ("4.5"): subsections that do not apply to the study's devices
--- are left out (issue 45: a PCIe paragraph in a CPU-only report), so the numbers follow what is there.
function M.next_number(ctx)
  ctx.section4 = (ctx.section4 or 2) + 1
  return "4." .. ctx.section4
end

-- Whether the study ran on a device kind.
local function ran_on(D, kind)
  for _, g in ipairs(D.groups) do if g.kind == kind then return true end end
  return false
end

--- §4.5: IPC, CPI and cache misses from perf_event hardware events, where a run has them; left out
--- of a study with no CPU run (they are CPU counters).
function M.cpu_counters(ctx)
  local D, rows, software_only = ctx.D, {}, 0
  if not ran_on(D, "cpu") then return end
  for _, g in ipairs(D.groups) do
    local ipc, cpi, miss_rate, mpki = {}, {}, {}, {}
    for _, r in ipairs((compute.used(g))) do
      local v = counter_values(D, r, "perf_event")
      if v and num(v.cycles) and num(v.instructions) and v.cycles > 0 and v.instructions > 0 then
        ipc[#ipc + 1], cpi[#cpi + 1] = v.instructions / v.cycles, v.cycles / v.instructions
        if num(v.cache_misses) then mpki[#mpki + 1] = v.cache_misses / v.instructions * 1000 end
        if num(v.cache_misses) and num(v.cache_references) and v.cache_references > 0 then
          miss_rate[#miss_rate + 1] = v.cache_misses / v.cache_references
        end
      elseif v then
        software_only = software_only + 1
      end
    end
    if #ipc > 0 then
      rows[#rows + 1] = row(g, {md.mean_sd_sig(stats.mean(ipc), stats.sd(ipc), 3),
        md.mean_sd_sig(stats.mean(cpi), stats.sd(cpi), 3), md.sig(stats.mean(mpki), 3),
        #miss_rate > 0 and md.pct(stats.mean(miss_rate), 1) or "-"}, ctx)
    end
  end
  ctx.doc:para("### " .. M.next_number(ctx) .. " CPU counters: IPC, CPI, cache misses")
  if #rows > 0 then
    local where = ctx.to_appendix("CPU counters per configuration", {"From `perf_event` hardware events over the " ..
      "counted iterations (user space; docs/counters.md): IPC = instructions ÷ cycles, CPI = cycles ÷ " ..
      "instructions, misses per 1,000 instructions, and misses ÷ references (the last-level cache, as `perf stat " ..
      "-e cache-misses,cache-references` counts it):",
      table_of(ctx, {"IPC", "CPI", "Cache misses / 1k instructions", "Cache miss rate", "Runs"}, rows,
        {"r", "r", "r", "r", "l"})})
    ctx.doc:para(string.format("IPC, CPI and cache misses from `perf_event` hardware events, for %d configuration%s: %s.",
      #rows, #rows == 1 and "" or "s", where))
  elseif software_only > 0 then
    ctx.doc:para(string.format("No IPC, CPI or cache misses: %d run%s counted `perf_event` software events only. " ..
      "The CPU's hardware events (cycles, instructions, cache misses) could not be opened: a virtual machine whose " ..
      "hypervisor exposes no PMU refuses them, as this project's VMs do (docs/counters.md). On bare metal, or a " ..
      "VM with a virtual PMU, the same sweep fills this table.", software_only, software_only == 1 and "" or "s"))
    ctx.missing[#ctx.missing + 1] = "no CPU hardware events (no PMU exposed): no IPC, CPI or cache misses"
  else
    ctx.doc:para("No IPC, CPI or cache misses: no run collected CPU counters (the CPU sweep of experiments/cpu.lua " ..
      "runs without them; `counters = true` in a CPU sweep collects `perf_event` events). Where the machine " ..
      "exposes no PMU (virtual machines such as this project's), only software events can be counted " ..
      "(docs/counters.md).")
    ctx.missing[#ctx.missing + 1] = "no CPU hardware counters: no IPC, CPI or cache misses"
  end
end

--- §4.6: PCIe traffic per iteration, where CUPTI or an imported ncu CSV counted it.
function M.pcie(ctx)
  local D, rows = ctx.D, {}
  for _, g in ipairs(D.groups) do
    local per_it, rate, src = {}, {}, nil
    for _, r in ipairs((compute.used(g))) do
      for source, v in pairs(data.derived_counters(D, r)) do
        local n = num(v.iterations) or num(r.counter_iters)
        if num(v.pcie_bytes) and n and n > 0 then
          per_it[#per_it + 1] = v.pcie_bytes / n
          if num(r.iter_mean_s) and r.iter_mean_s > 0 then rate[#rate + 1] = v.pcie_bytes / n / r.iter_mean_s end
          src = source
        end
      end
    end
    if #per_it > 0 then
      rows[#rows + 1] = row(g, {md.sig(stats.mean(per_it) / 1e6, 4), md.sig(stats.mean(rate) and stats.mean(rate) / 1e9, 3),
        md.esc(src)}, ctx)
    end
  end
  if #rows == 0 and not ran_on(D, "cuda") then return end  -- no GPU run: nothing crossed PCIe
  ctx.doc:para("### " .. M.next_number(ctx) .. " PCIe traffic")
  if #rows == 0 then
    ctx.doc:para("No PCIe counters stored: `pcie__read_bytes.sum + pcie__write_bytes.sum` come from CUPTI (metric " ..
      "group `pcie`) or an imported Nsight Compute CSV; some GPUs count them only in a run of their own, and some " ..
      "virtual machines do not expose them.")
    return
  end
  local where = ctx.to_appendix("PCIe traffic per configuration", {"Host–device traffic per counted iteration " ..
    "(read + write, MB = 1e6 bytes) and over the timed iteration time (GB/s):",
    table_of(ctx, {"PCIe MB / iteration", "PCIe GB/s", "Counters", "Runs"}, rows, {"r", "r", "l", "l"})})
  ctx.doc:para(string.format("Host–device traffic (PCIe counters) for %d configuration%s: %s.", #rows,
    #rows == 1 and "" or "s", where))
end

--- Cost per 1,000 images from each run's price per hour (rlx.study{price_per_hour =}).
function M.cost(ctx)
  local rows = {}
  for _, g in ipairs(ctx.D.groups) do
    -- The row's own images/s (the mean §4.1 reports), so the formula holds on every row: a mean of
    -- per-run costs would weigh a slow repeat more than the throughput column does.
    local price = mean_of(g, function(r) return result_of(r).price_per_hour end)
    local ips = compute.throughput(g).mean
    if price and ips and ips > 0 then
      rows[#rows + 1] = row(g, {md.sig(ips, 3), md.sig(price, 4), md.sig(price / (3.6 * ips), 3)}, ctx)
    end
  end
  if #rows == 0 then return end
  ctx.doc:para("### " .. M.next_number(ctx) .. " Cost")
  local where = ctx.to_appendix("Cost per configuration", {"Cost per 1,000 images = price per hour × 1,000 ÷ " ..
    "(3,600 × images/s), with the row's images/s (the mean of §4.1) and the price its runs were stored with " ..
    "(`--set price_per_hour=`), in that price's currency; training time only (no start-up, no idle machine):",
    table_of(ctx, {"Images/s", "Price / hour", "Cost / 1,000 images", "Runs"}, rows, {"r", "r", "r", "l"})})
  ctx.doc:para(string.format("Cost per 1,000 images = price per hour × 1,000 ÷ (3,600 × images/s), for %d " ..
    "configuration%s: %s.", #rows, #rows == 1 and "" or "s", where))
end

--- §4.3 to §4.7, in order.
function M.section(ctx)
  M.time_breakdown(ctx)
  M.bandwidth(ctx)
  M.cpu_counters(ctx)
  M.pcie(ctx)
  M.cost(ctx)
end

return M
