-- rlx.study._slot: one slot of a sweep, from its claim to its stored row (rlx.study's sweep calls
-- these as methods of the study object; docs/lua-api/study.md). Per slot: claim it in its own
-- transaction (or skip it: done, busy in another process, crashed too often or by the OOM killer),
-- refuse it when its memory estimate does not fit, time the noise floor, train it under the budget's
-- caps, and store the result over the claim. Anything that stops the process's Lua between the claim
-- and the stored row withdraws the claim, so the same command trains the slot again. Runs that
-- were unsteady, shared their cores or missed their precision are trained once more while the
-- budget allows: in the sweep's order, one slot after their first attempt (issue 55), else after
-- the matrix. Split from study.lua so each file reads in one sitting.
local errors = require("rlx.errors")
local plan = require("rlx.plan")
local text = require("rlx.plan.text")
local duration_text = text.duration_text
local kind_of = require("rlx.studydb.data").kind_of
local printable = require("rlx.show").printable

-- One line on stderr, a user's strings in it (labels, model names) escaped (rlx.show.printable).
local function say(line) io.stderr:write(printable(line) .. "\n") end

local M = {}

local common = require("rlx.study._common")
local warn, now_s, plain_data = common.warn, common.now_s, common.plain_data
local roofline_rows = common.roofline_rows

local Study = {}

-- What a sweep would do now with a slot whose row is crashed or running (the plan of a dry run):
-- {skip = true, text = "skip (...)"} or {skip = false, text = "retry (attempt N: ...)"}.
function Study:_peek_slot(it, o)
  if it.done or it.not_in_shard or o.force then return nil end
  if it.peek == nil then it.peek = self:_peek_claim(it, o) or false end
  return it.peek or nil
end

function Study:_peek_claim(it, o)
  local c = self.db:peek_claim{study = self.name, environment_id = self.env_id, label = it.label, run = it.run,
    config = plain_data(it.config, 0), retry_crashed = o.retry_crashed, max_attempts = o.max_attempts,
    stale_after_s = o.stale_after_s}
  local h = c.holder or {}
  if c.state == "busy" then
    return {skip = true, text = string.format("skip (being trained by process %s on %s since %s)", tostring(h.pid),
      tostring(h.host), tostring(h.claimed_at))}
  elseif c.state == "crashed" then
    return {skip = true, text = "skip (crashed, not retried: " .. M.crash_advice(it.config, c, o, it.label) .. ")"}
  elseif not c.retry then
    return nil
  end
  return {skip = false, text = string.format("retry (attempt %d: the previous one %s)", c.attempt,
    tostring(c.last_death))}
end

-- Why a crashed slot is not retried, and what to do: claim.stop is "oom" (the OOM killer: the same
-- configuration would be killed again) or "limit" (it died max_attempts times).
function M.crash_advice(config, claim, o, label)
  if claim.stop == "oom" then
    local h = claim.holder or {}
    local who = (label and h.label and h.label ~= label) and (" (as " .. h.label .. ", a repeat of it)") or ""
    return string.format("%s at batch %s %s%s; not retried with the same configuration: lower the batch size " ..
      "below %s (or the input size), or give retry_crashed = true to try it as it is", tostring(config.model),
      tostring(config.batch), tostring(claim.last_death), who, tostring(config.batch))
  end
  return string.format("its process died %d time(s), max_attempts = %d (last: %s); give max_attempts = %d or " ..
    "retry_crashed = true to try again", #(claim.deaths or {}), o.max_attempts, tostring(claim.last_death),
    #(claim.deaths or {}) + 1)
end

-- Withdraws this process's claim of a slot whose run will not be stored (Ctrl-C, SIGTERM, SIGHUP,
-- or storing it failed), so a rerun trains it again; says so (msg: what happened).
function Study:_withdraw(claim, it, msg)
  local ok, released = pcall(self.db.release_claim, self.db, claim.id or "")
  if ok and released then
    say(string.format("%s: %s; nothing of it was stored and its claim was withdrawn, so the same " ..
      "command trains it again", it.label, msg))
  end
end

-- Claims one slot (its own transaction), trains it unless another process has it or its process
-- died too often (or by the OOM killer) before, and stores the result over the claim.
function Study:_sweep_slot(o, it, counter, trainer, stats, cache)
  local claim = self.db:claim{study = self.name, environment_id = self.env_id, label = it.label, run = it.run,
    config = plain_data(it.config, 0), force = o.force, retry_crashed = o.retry_crashed,
    max_attempts = o.max_attempts, stale_after_s = o.stale_after_s,
    columns = {sweep_order = it.order, sweep_seed = it.seed, position = it.position}}
  local h = claim.holder or {}
  if claim.crashed_now then warn(string.format("%s: %s", it.label, tostring(h.error))) end
  if claim.state == "done" then
    stats.skipped = stats.skipped + 1
    return
  elseif claim.state == "busy" then
    stats.busy = stats.busy + 1
    it.busy_holder = h
    if not o.quiet then
      say(string.format("%s %s: being trained by process %s on %s (claimed at %s); left to it", counter,
        it.label, tostring(h.pid), tostring(h.host), tostring(h.claimed_at)))
    end
    return
  elseif claim.state == "crashed" then
    stats.crashed = stats.crashed + 1
    local why = M.crash_advice(it.config, claim, o, it.label)
    stats.not_retried[#stats.not_retried + 1] = it.label .. ": " .. why
    if not o.quiet then say(string.format("%s %s: not retried: %s", counter, it.label, why)) end
    return
  end
  if not o.quiet then
    say(string.format("%s %s%s", counter, it.label, claim.retry and
      string.format(" (attempt %d: the previous one %s)", claim.attempt, tostring(claim.last_death)) or ""))
  end
  -- From the claim to the stored row, anything that stops this process's Lua (Ctrl-C during the
  -- noise floor as much as during training, or a failed store) withdraws the claim, so a rerun
  -- trains the slot again instead of finding a `running` row of a live process.
  local stored, err, wall = pcall(self._train_and_store, self, o, it, claim, trainer, cache)
  if not stored then
    self:_withdraw(claim, it, errors._is_exit(err) and "not finished (" .. M.exit_reason(err) .. ")"
      or "trained, but storing it failed")
    error(err, 0)
  end
  local result = err
  it.trained_now = true
  stats.ran = stats.ran + 1
  if result.ok then stats.ok = stats.ok + 1 else
    stats.failed = stats.failed + 1
    warn(string.format("%s failed: %s", it.label, tostring(result.error)))
  end
  stats.labels[#stats.labels + 1] = it.label
  if result.ok then self:_after_run(it, result, wall) end
  if not o.quiet then say(self:_run_line(o, it, counter, result, wall, stats, cache)) end
end

-- The line after each run, for a log (`> log 2>&1`) as much as a terminal: what it measured, and
-- how long the study has run and about how long it has left (rlx.plan: the runs still kept).
-- A slot the memory check will refuse is not counted: it takes no time (issue 56 item 7: "~4296 h
-- left" after run 1, for a batch refused a moment later). The memory available is read once.
function Study:_run_line(o, it, counter, result, wall, stats, cache)
  local left
  -- A rerun during the matrix stands where the sweep is (stats.at), not at its first attempt's place.
  local at = stats.at or (stats.items and it.position and stats.items[it.position] == it and it.position)
  if at then
    local mem
    local checked = setmetatable({memory_available = function()
      mem = mem or (o.memory_available or rlx.memory.available)()
      return mem
    end}, {__index = o})
    left = plan.of(self):time_left(stats.items, at, o, stats.deadline,
      function(x) return self:_will_run(x, o) and not self:_memory_refusal(checked, x, cache or {}) end,
      stats.rerun_spent_s)
  end
  if left then left = left + (o.after_s or 0) end
  return text.run_line(counter, it.label, result, wall, now_s() - (stats.started_s or now_s()), left)
end

-- Slots left to another process during the matrix are claimed once more after it: a holder that
-- has died since (the zombie of a killed sweep) is a crash to retry, a finished one is done. Those
-- still held are named (stats.left_to_others: "label (process N on host since T)"): the study is
-- incomplete until their processes store them (issue 35 item 1).
function Study:_after_busy(o, items, trainer, stats, cache)
  local busy = {}
  for _, it in ipairs(items) do
    if it.busy_holder then busy[#busy + 1] = it end
  end
  stats.left_to_others = {}
  for k, it in ipairs(busy) do
    it.busy_holder = nil
    stats.busy = stats.busy - 1
    self:_sweep_slot(o, it, string.format("[again %d/%d]", k, #busy), trainer, stats, cache)
    local h = it.busy_holder
    if h then
      stats.left_to_others[#stats.left_to_others + 1] = string.format("%s (process %s on %s since %s)", it.label,
        tostring(h.pid), tostring(h.host), tostring(h.claimed_at))
    end
  end
  if #stats.left_to_others > 0 then
    warn(string.format("%d slot(s) still being trained by other processes, so this study is incomplete: %s; " ..
      "their runs are stored when those processes finish (rlx status shows them), or run the same command " ..
      "again then", #stats.left_to_others, table.concat(stats.left_to_others, "; ")))
  end
end

-- What ended the process, for the withdrawal line: a signal by its exit status (128 + signal, the
-- host's protocol), else the exit's message.
local SIGNAL_EXITS = {[130] = "interrupted", [143] = "stopped by SIGTERM",
  [129] = "stopped by SIGHUP (the terminal or the ssh session closed)"}
function M.exit_reason(err)
  return SIGNAL_EXITS[type(err) == "table" and rawget(err, "exit_code") or 0] or errors.message(err)
end

-- Trains a claimed slot and stores its run over the claim; returns the result and the wall seconds.
function Study:_train_and_store(o, it, claim, trainer, cache)
  local started, t0 = rlx.db.now(), now_s()
  local result = self:_train_slot(o, it, trainer, cache)
  local wall = now_s() - t0
  local complexity = result.ok and self:_complexity(it.config, cache) or nil
  local points = result.ok and roofline_rows(result, self:_roofline_peaks(it.config.device), complexity) or {}
  self:store_run(it.config, result, {run = it.run, label = it.label, started_at = started, total_s = wall,
    complexity = complexity, roofline = points, sweep_order = it.order, sweep_seed = it.seed, position = it.position,
    id = claim.id, attempt = claim.attempt})
  return result, wall
end

-- The noise floor (issue 21): a short fixed FMA kernel timed just before a CPU run, the median
-- GFLOP/s of 5 repeats of about 20 ms (rlx.peaks.measure's quick fp32 figure). It measures the
-- machine, not the workload: the report compares its spread with the runs'.
local function noise_floor()
  local ok, p = pcall(rlx.peaks.measure, {device = "cpu", quick = true, only = {"fp32"}, repeats = 5})
  errors.pass_exits(p)
  local st = ok and type(p) == "table" and type(p.stats) == "table" and p.stats.fp32_gflops
  return type(st) == "table" and st.median or nil
end

-- Trains one claimed slot: the memory check, the noise floor, then the trainer with the slot's
-- config and its budget caps (it.caps); a rerun keeps the run it replaces (it.earlier).
function Study:_train_slot(o, it, trainer, cache)
  local result = self:_memory_refusal(o, it, cache)
  if result then return result end
  local train_opts = {}
  for k, v in pairs(it.config) do train_opts[k] = v end
  for k, v in pairs(it.caps or {}) do train_opts[k] = v end
  train_opts.label = it.label
  train_opts.accept_ci = nil  -- the study's judgement of a run, not an option of its training
  train_opts._layout = it.layout  -- the sweep's layout rule decided it (rlx.plan.layout); the result says so
  local floor = o.noise_floor and kind_of(it.config.device) == "cpu" and noise_floor() or nil
  local ok
  ok, result = pcall(trainer, train_opts)
  if not ok then
    -- Ctrl-C (and rlx.fail) arrive as {exit_code=...}: _sweep_slot withdraws the claim.
    errors.pass_exits(result)
    return {ok = false, error = tostring(result)}
  elseif type(result) ~= "table" then
    return {ok = false, error = "the trainer returned " .. type(result) .. " instead of a result table"}
  end
  if result.ok then
    result.floor_gflops = result.floor_gflops or floor
    result.earlier_runs = it.earlier
    -- Why the attempt this run replaces was trained again: the store keeps that attempt in
    -- run_attempts with this reason (issue 55; docs/storage.md).
    result.rerun_because = it.earlier and it.rerun_because or nil
    result.plan_notes = o.notes
  end
  return result
end

-- After a stored ok run: the contention warning as it happens, and what the estimates learn.
function Study:_after_run(it, result, wall)
  if result.contended == true then
    warn(string.format("%s shared its cores (other processes used %.1f cores, the run got %.0f %% of its own): " ..
      "flagged and left out of the means; stop other work on this machine", it.label, tonumber(result.other_cpu) or 0,
      (tonumber(result.cpu_share) or 0) * 100))
  end
  plan.of(self):observe(it.config, result, wall)
end

-- Whether a stored run is left out of the means and worth training again: unsteady, contended, or
-- short of the precision its protocol asks (ci_rel above accept_ci).
local function flagged_run(r)
  if r.stable == 0 or r.contended == 1 then return true end
  local accept = type(r.config) == "table" and r.config.accept_ci
  return type(accept) == "number" and type(r.ci_rel) == "number" and r.ci_rel > accept
end

local function flag_text(e)
  if e.stable == 0 then return "unsteady" end
  if e.contended == 1 then return "contended" end
  local accept = type(e.config) == "table" and type(e.config.accept_ci) == "number" and e.config.accept_ci
  return string.format("CI ±%.1f %%%s", (e.ci_rel or 0) * 100,
    accept and string.format(" above ±%.1f %%", accept * 100) or "")
end

-- Whether the item's stored run is to be trained once more (ok but flagged, and not a rerun
-- itself: each slot is rerun at most once); when it is, it.earlier (the run it replaces, kept in
-- the rerun's earlier_runs) and it.rerun_because (why, kept with that attempt in run_attempts).
function Study:_flag_for_rerun(it)
  local r = not it.not_in_shard and self.db:runs{study = self.name, label = it.label}[1]
  local earlier = r and type(r.result) == "table" and r.result.earlier_runs
  if not (r and r.status == "ok" and flagged_run(r) and not earlier) then return false end
  it.earlier = {{images_per_s = r.images_per_s, stable = r.stable, drift = r.drift, cv = r.cv, ci_rel = r.ci_rel,
    contended = r.contended, other_cpu = r.other_cpu, stop_reason = r.stop_reason, finished_at = r.finished_at}}
  it.rerun_because = flag_text(r)
  return true
end

-- Issue 55: a flagged run is trained again in the sweep's order, not saved for the end, where the
-- machine's drift (a noise floor 11 % higher after 43 minutes) made every rerun read faster. Called
-- after slot i of the matrix: the reruns queued before slot i (so one other slot ran since their
-- first attempt) are trained now when they fit the time kept for reruns (fit.RERUN_RESERVE of the
-- budget, less what reruns spent: the runs the plan kept keep theirs); a rerun that does not fit
-- now waits for the end (_rerun_flagged). Then slot i's own run is queued when it was trained now
-- and is flagged. queue holds {it, at}; stats.rerun_spent_s counts the reruns' wall seconds.
function Study:_interleave_reruns(o, items, i, queue, deadline, trainer, stats, cache)
  local planner, waiting = plan.of(self), {}
  for _, q in ipairs(queue) do
    if q.at < i then
      local it = q.it
      planner:by_cost({it}, o)
      local room = math.min(planner:reserve_left(o, stats.rerun_spent_s), deadline - now_s())
      if it.min_s and it.min_s <= room then
        it.caps = planner:caps_among({it}, 1, o, room)
        if not o.quiet then
          say(string.format("rerun %s (%s before), %s", it.label, it.rerun_because,
            items[i] and ("after " .. items[i].label) or "after the matrix's last slot"))
        end
        stats.reruns = (stats.reruns or 0) + 1
        stats.at = i
        local t0 = now_s()
        self:_sweep_slot(setmetatable({force = true}, {__index = o}), it, string.format("[rerun after %d/%d]", i,
          #items), trainer, stats, cache)
        stats.rerun_spent_s = (stats.rerun_spent_s or 0) + (now_s() - t0)
        stats.at = nil
        stats.rerun_order[#stats.rerun_order + 1] = it.label
      end
    else
      waiting[#waiting + 1] = q
    end
  end
  for k = #queue, 1, -1 do queue[k] = nil end
  for _, q in ipairs(waiting) do queue[#queue + 1] = q end
  local it = items[i]
  if it and it.trained_now and self:_flag_for_rerun(it) then queue[#queue + 1] = {it = it, at = i} end
end

-- Runs of this sweep that failed the steady-state verdict, shared their cores or missed their
-- precision and were not trained again during the matrix (_interleave_reruns) are trained once
-- more while the budget allows, cheapest first (each at most once: the replaced run is kept in
-- earlier_runs and in run_attempts); the rest stay flagged and the report leaves them out of the
-- means.
function Study:_rerun_flagged(o, items, deadline, trainer, stats, cache)
  local flagged = {}
  for _, it in ipairs(items) do
    if self:_flag_for_rerun(it) then flagged[#flagged + 1] = it end
  end
  local planner = plan.of(self)
  planner:by_cost(flagged, o)
  local again = setmetatable({force = true}, {__index = o})
  for k, it in ipairs(flagged) do
    local left = deadline - now_s()
    if it.min_s and it.min_s <= left then
      it.caps = planner:caps_among(flagged, k, o, left)
      if not o.quiet then say(string.format("rerun %s (%s before)", it.label, it.rerun_because)) end
      stats.reruns = (stats.reruns or 0) + 1
      self:_sweep_slot(again, it, string.format("[rerun %d/%d]", k, #flagged), trainer, stats, cache)
      stats.rerun_order[#stats.rerun_order + 1] = it.label
    elseif not o.quiet then
      say(string.format("not rerun %s: it needs about %s and %s is left; it stays flagged", it.label,
        it.min_s and duration_text(it.min_s) or "an unknown time", duration_text(math.max(0, left))))
    end
  end
end

-- Runs the budget left out during the matrix are trained after all when the time left holds them,
-- cheapest first (issue 45: a study that ran faster than planned ended with time to spare and
-- runs left out). What still does not fit stays in stats.left_out, in the sweep's order.
function Study:_fill_left_out(o, deadline, trainer, stats, cache)
  if #stats.left_out == 0 then return end
  local planner, list = plan.of(self), {}
  for _, it in ipairs(stats.left_out) do list[#list + 1] = it end
  planner:by_cost(list, o)
  local trained = {}
  for k, it in ipairs(list) do
    local left = deadline - now_s()
    if it.min_s and it.min_s <= left then
      it.caps = planner:caps_among(list, k, o, left)
      if not o.quiet then
        say(string.format("%s: left out before, it fits now (~%s of the %s left)", it.label, duration_text(it.min_s),
          duration_text(left)))
      end
      trained[it] = true
      self:_sweep_slot(o, it, string.format("[left out, now %d/%d]", k, #list), trainer, stats, cache)
    end
  end
  local still = {}
  for _, it in ipairs(stats.left_out) do if not trained[it] then still[#still + 1] = it end end
  stats.left_out = still
end

local function gb(bytes) return string.format("%.2f GB", bytes / 1e9) end

-- A failed result when the model's memory estimate (rlx.model.summary's memory_bytes) does not
-- fit in the memory available here (rlx.memory: MemAvailable and cgroup limits), else nil. Only
-- for CPU runs: a GPU's memory is its own. o.memory_check = false skips it.
function Study:_memory_refusal(o, it, cache)
  if o.memory_check == false or (it.config.device or "cpu") ~= "cpu" then return nil end
  local c = self:_complexity(it.config, cache, true)
  local need = c and tonumber(c.memory_bytes)
  if not need then return nil end
  local m = (o.memory_available or rlx.memory.available)()
  if not m.available_bytes or need <= m.available_bytes then return nil end
  local where = m.cgroup and string.format(" (cgroup %s limit %s, %s in use)", m.cgroup, gb(m.cgroup_limit_bytes),
    gb(m.cgroup_usage_bytes)) or ""
  return {ok = false, error = string.format("not enough memory: %s at batch %s needs about %s (rlx.model.summary's " ..
    "estimate) but %s is available%s; not trained. Lower the batch size or the input size, or pass " ..
    "memory_check = false to try anyway", tostring(it.config.model), tostring(it.config.batch), gb(need),
    gb(m.available_bytes), where)}
end


-- The slot methods: rlx.study adds them to its study class.
M.methods = Study

return M
