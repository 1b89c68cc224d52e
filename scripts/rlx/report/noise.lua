-- rlx.report.noise: the machine's variation against the workload's (issue 21 item 4, seed 001's
-- question 3): per environment, the noise floor (the FMA probe rlx times just before each run,
-- floor_gflops), the median CV across repeats, the steady fraction and the runs flagged for
-- contention, with the sentence that compares them; and the reason of every row whose CV across
-- repeats exceeds M.CV_LIMIT. A database from an rlx before issue 21 has no probe or contention
-- record: the section says so instead of guessing.
local md = require("rlx.report.md")
local compute = require("rlx.report.compute")
local configs = require("rlx.studydb.configs")
local lead = require("rlx.report.lead")
local stats = require("rlx.stats")
local M = {}

-- A row above 10 % CV across repeats must say why (issue 21's target).
M.CV_LIMIT = 0.10
-- Other processes using half a core or more on average during a run's timed section count as a
-- reason for its row's spread, even below the study's contention flag.
M.OTHER_CPU_REASON = 0.5

local function numbers(runs, name)
  local xs = {}
  for _, r in ipairs(runs) do
    local v = configs.field(r, name)
    if type(v) == "number" and v == v then xs[#xs + 1] = v end
  end
  return xs
end

local function max_of(xs)
  local m
  for _, x in ipairs(xs) do m = (m == nil or x > m) and x or m end
  return m
end

--- Why a group's CV across repeats exceeds M.CV_LIMIT (nil when it does not, or has one repeat):
--- the flags of its runs when every run was flagged; the machine's noise floor when the FMA probe
--- before its runs varied by at least half the row's CV; contention when other processes used
--- M.OTHER_CPU_REASON cores or more; else "unknown" with what was ruled out.
function M.cv_reason(g)
  local t = compute.throughput(g)
  if not t.cv or t.n < 2 or t.cv <= M.CV_LIMIT then return nil end
  local used, flagged, all = compute.used(g)
  local reasons = {}
  if all then
    local kinds = {}
    for _, f in ipairs(flagged) do for _, x in ipairs(f.flags) do kinds[x.kind] = true end end
    if kinds.unsteady then reasons[#reasons + 1] = "unsteady runs (none of the row's runs steady)" end
    if kinds.unjudged then
      reasons[#reasons + 1] = "runs too short to judge (none of the row's runs has a steady-state verdict)"
    end
    if kinds.contended then reasons[#reasons + 1] = "contention (every run of the row flagged)" end
  end
  local floors = numbers(used, "floor_gflops")
  local floor_cv = #floors >= 2 and stats.cv(floors) or nil
  if floor_cv and floor_cv >= t.cv / 2 then
    reasons[#reasons + 1] = string.format("machine noise floor (the FMA probe before these runs varied %s)",
      md.pct(floor_cv, 1))
  end
  local other = max_of(numbers(used, "other_cpu"))
  if other and other >= M.OTHER_CPU_REASON then
    reasons[#reasons + 1] = string.format("contention (other processes used up to %.1f cores)", other)
  end
  if #reasons > 0 then return table.concat(reasons, "; ") end
  local ruled = {}
  if not all then
    local known = #numbers(used, "stable")
    if known > 0 then ruled[#ruled + 1] = "runs steady" end
  end
  if floor_cv then ruled[#ruled + 1] = "noise floor " .. md.pct(floor_cv, 1) end
  if other then ruled[#ruled + 1] = string.format("other processes ≤ %.1f cores", other) end
  if #ruled == 0 then return "unknown (no noise floor or contention recorded)" end
  return "unknown (" .. table.concat(ruled, ", ") .. ")"
end

-- "8 / 9 (89 %)": steady of the runs with a verdict, then how many were too short for one.
local function steady_cell(s)
  local too_short = s.unjudged > 0 and string.format("%d too short to judge", s.unjudged) or nil
  if s.verdicts == 0 then return too_short or "not recorded" end
  local cell = string.format("%d / %d (%s)", s.steady, s.verdicts, md.pct(s.steady / s.verdicts, 0))
  return too_short and (cell .. "; " .. too_short) or cell
end

-- Per environment key: the numbers of the noise table.
local function summary(D, key)
  local runs, repeats = {}, compute.repeat_cvs(D, key)
  for _, r in ipairs(D.ok) do if r.env_key == key then runs[#runs + 1] = r end end
  local s = {key = key, runs = #runs, floors = numbers(runs, "floor_gflops"), cvs = repeats.cvs, cpu = false}
  for _, r in ipairs(runs) do s.cpu = s.cpu or r.kind == "cpu" end
  s.floor_cv = #s.floors >= 2 and stats.cv(s.floors) or nil
  s.median_cv = repeats.median
  local verdicts, steady, unjudged, records, contended = 0, 0, 0, 0, 0
  for _, r in ipairs(runs) do
    local v = configs.verdict(r)
    if v == "steady" or v == "unsteady" then verdicts = verdicts + 1 end
    if v == "steady" then steady = steady + 1 elseif v == "unjudged" then unjudged = unjudged + 1 end
    local c = configs.field(r, "contended")
    if c ~= nil then records = records + 1; if c == 1 or c == true then contended = contended + 1 end end
  end
  s.verdicts, s.steady, s.unjudged, s.records, s.contended = verdicts, steady, unjudged, records, contended
  local stops, order = {}, {}
  for _, r in ipairs(runs) do
    local why = configs.field(r, "stop_reason")
    if type(why) == "string" then
      if not stops[why] then stops[why] = 0; order[#order + 1] = why end
      stops[why] = stops[why] + 1
    end
  end
  table.sort(order)
  s.stops, s.stop_order = stops, order
  s.ci_rel = numbers(runs, "ci_rel")
  return s
end

local function floor_cell(s)
  if #s.floors == 0 then return "not recorded" end
  local sorted = {}
  for i, x in ipairs(s.floors) do sorted[i] = x end
  table.sort(sorted)
  return string.format("%s / %s / %s", md.sig(sorted[1], 3), md.sig(stats.median(sorted), 3),
    md.sig(sorted[#sorted], 3))
end

local function stop_cell(s)
  if #s.stop_order == 0 then return "-" end
  local parts = {}
  for _, k in ipairs(s.stop_order) do parts[#parts + 1] = string.format("%s %d", md.esc(k), s.stops[k]) end
  local text = table.concat(parts, ", ")
  if #s.ci_rel > 0 then
    text = text .. string.format("; CI ±%s median, ±%s max", md.pct(stats.median(s.ci_rel), 1),
      md.pct(max_of(s.ci_rel), 1))
  end
  return text
end

--- The sentence answering seed 001's question 3 for one environment: the machine's variation (the
--- noise floor's CV) against the workload's (the median CV across repeats).
function M.verdict(s)
  if not s.floor_cv then
    -- The FMA probe runs before CPU runs only (issue 45: a GPU study read as if it had lost one).
    return string.format("%s: %s, so the machine's own variation cannot be told from the workload's%s.",
      md.esc(s.key), not s.cpu and "rlx times its noise-floor probe (a CPU FMA kernel) before CPU runs only" or
      ((#s.floors == 0 and "no" or "a single") .. " noise-floor probe stored with these runs"),
      s.median_cv and (" (median CV across repeats " .. md.pct(s.median_cv, 1) .. ")") or "")
  end
  if not s.median_cv then
    return string.format("%s: the noise floor varied %s over the study; no configuration has two repeats to " ..
      "compare it with.", md.esc(s.key), md.pct(s.floor_cv, 1))
  end
  local ratio = s.median_cv > 0 and s.floor_cv / s.median_cv or math.huge
  local head = string.format("%s: the machine's noise floor varied %s (CV of the FMA probe over %d runs) against a " ..
    "median CV across repeats of %s, ", md.esc(s.key), md.pct(s.floor_cv, 1), #s.floors, md.pct(s.median_cv, 1))
  if ratio >= 0.75 then
    return head .. "so the machine accounts for most of the run-to-run variation: on this machine a difference " ..
      "between configurations smaller than about " .. md.pct(s.floor_cv, 1) .. " is noise, not a finding."
  elseif ratio >= 0.25 then
    return head .. string.format("so the machine accounts for part of it (%.0f %% of the median CV) and the " ..
      "workload for the rest.", ratio * 100)
  end
  return head .. string.format("so the variation is the workload's: the machine moved %.0f %% as much as the " ..
    "repeats did.", ratio * 100)
end

--- Question 3 across machines (issue 34): the environments ranked by their median CV across repeats,
--- each with its noise floor's CV, and the ratio of the noisiest to the quietest. nil with fewer
--- than two environments that have repeats.
function M.across(sums)
  local have = {}
  for _, s in ipairs(sums) do if s.median_cv then have[#have + 1] = s end end
  if #have < 2 then return nil end
  table.sort(have, function(a, b) return a.median_cv > b.median_cv end)
  local parts = {}
  for _, s in ipairs(have) do
    parts[#parts + 1] = string.format("%s %s (noise floor %s)", md.esc(s.key), md.pct(s.median_cv, 1),
      s.floor_cv and md.pct(s.floor_cv, 1) or "not recorded")
  end
  local hi, lo = have[1], have[#have]
  local ratio = lo.median_cv > 0 and string.format("%.1f×", hi.median_cv / lo.median_cv) or "infinitely"
  return string.format("Across environments, the median CV across repeats is %s: the repeats on %s vary %s as " ..
    "much as on %s. A difference between two environments smaller than the noisier one's median CV is within " ..
    "its run-to-run noise.", table.concat(parts, ", "), md.esc(hi.key), ratio, md.esc(lo.key))
end

--- §4.2's paragraph and table on measurement quality, one row per environment key.
function M.section(ctx)
  local D, doc = ctx.D, ctx.doc
  local keys = lead.env_keys(D)
  if #D.ok == 0 then return end
  local rows, sums = {}, {}
  for _, key in ipairs(keys) do
    local s = summary(D, key)
    sums[#sums + 1] = s
    rows[#rows + 1] = {md.esc(key), floor_cell(s), s.floor_cv and md.pct(s.floor_cv, 1) or "-",
      s.median_cv and md.pct(s.median_cv, 1) or "-",
      steady_cell(s),
      s.records > 0 and string.format("%d / %d", s.contended, s.records) or "not recorded", stop_cell(s)}
  end
  local any_floor, any_cpu = false, false
  for _, s in ipairs(sums) do any_floor, any_cpu = any_floor or #s.floors > 0, any_cpu or s.cpu end
  doc:para("**Noise floor and contention.** The noise floor is a fixed FMA kernel timed just before each CPU run: " ..
    "it measures the machine, not the workload. Contention is the CPU time other processes took during a run's " ..
    "timed iterations. " .. ((any_floor or not any_cpu) and "" or
      "These CPU runs carry no noise floor (stored by an rlx older than the probe). ") ..
    "Runs that are " .. configs.left_out_words(D.ok) .. " are left out of every mean (docs/report.md):")
  doc:para(md.table({"Env", "Noise floor GFLOP/s (min / median / max)", "Noise floor CV", "Median CV across repeats",
    "Steady runs", "Contended runs", "Stopped by"}, rows, {"l", "r", "r", "r", "r", "r", "l"}))
  local lines = {}
  for _, s in ipairs(sums) do lines[#lines + 1] = "- " .. M.verdict(s) end
  local across = M.across(sums)
  if across then lines[#lines + 1] = "- " .. across end
  doc:para("**Machine vs workload (question 3).**"):para(lines)
  local any_cv = false
  for _, s in ipairs(sums) do any_cv = any_cv or s.floor_cv ~= nil end
  if not any_cv and any_cpu then
    ctx.missing[#ctx.missing + 1] = "no noise floor recorded: the machine's variation is not separated from the " ..
      "workload's"
  end
end

return M
