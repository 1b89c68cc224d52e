-- rlx.slurm._status: `rlx status DB`: what every Slurm submission of the study database DB has
-- done, from the manifests under <db dir>/shards/<db name>/, the runs stored in DB and in every
-- shard database, and squeue. A slot is done when an ok run of it is stored anywhere; otherwise it
-- is running or pending while its array task is, failed when its task ended and stored a failed
-- run, and missing when its task ended without one (cancelled, killed, timed out).
local S = require("rlx.slurm._array")

local M = {}

local ACTIVE = {PENDING = "pending", CONFIGURING = "running", RUNNING = "running", COMPLETING = "running",
  SUSPENDED = "pending", REQUEUED = "pending", RESIZING = "running"}

-- The state of one slot given what is stored and the state of its task in squeue (nil: gone).
local function slot_state(stored, task_state)
  if stored and stored.ok > 0 then return "done" end
  local active = task_state and ACTIVE[task_state]
  if active then return active end
  if stored and stored.failed > 0 then return "failed" end
  return "missing"
end

--- {study, db, submissions = {{dir, array_job, collect_job, collect_state, tasks = {{task, state,
--- slots, done, running, pending, failed, missing}}}}, totals = {...}, note}
function M.status(db)
  local root = S.shards_root(db)
  local dbs = {db}
  for _, path in ipairs(S.shard_databases(root)) do dbs[#dbs + 1] = path end
  local stored = S.slot_states(dbs)
  local manifests, jobs = {}, {}
  local unreadable = {}
  for _, path in ipairs(S.manifests(root)) do
    local m, why = S.try_manifest(path)
    if not m then
      -- Named, not skipped silently (issue 56 item 7); the others are still shown.
      unreadable[#unreadable + 1] = why
    else
      manifests[#manifests + 1] = m
      if m.array_job then jobs[#jobs + 1] = tostring(m.array_job) end
      if m.collect_job then jobs[#jobs + 1] = tostring(m.collect_job) end
    end
  end
  local queue, err = S.squeue(jobs)
  local out = {db = db, shards = root, submissions = {}, note = queue == nil and ("squeue: " .. tostring(err)) or nil,
    unreadable = unreadable}
  queue = queue or {}
  local latest = {}  -- slot -> state in the latest submission that holds it
  local unsubmitted = {}  -- slots only in submissions sbatch refused
  for _, m in ipairs(manifests) do
    local sub = {dir = m.dir, array_job = m.array_job, collect_job = m.collect_job, tasks = {}}
    local cq = m.collect_job and queue[tostring(m.collect_job)]
    sub.collect_state = cq and cq["-"] or (m.collect_job and "finished" or "not submitted")
    local aq = m.array_job and queue[tostring(m.array_job)] or {}
    for t, task in ipairs(m.tasks) do
      local state = aq[tostring(t - 1)]  -- squeue -r lists every array element, pending ones too
      local row = {task = t - 1, state = state or (m.array_job and "finished" or "not submitted"), slots = #task.slots,
        done = 0, running = 0, pending = 0, failed = 0, missing = 0}
      for _, slot in ipairs(task.slots) do
        -- A submission sbatch refused ran nothing: its slots are not "submitted" (issue 35 item 11:
        -- status said "4 slots submitted" above "not submitted"), unless a run of it was stored (a
        -- manifest written by hand, or shards collected from elsewhere).
        if m.array_job or stored[slot.slot] then
          local s = slot_state(stored[slot.slot], state)
          row[s] = row[s] + 1
          latest[slot.slot] = s
        else
          unsubmitted[slot.slot] = true
        end
      end
      sub.tasks[#sub.tasks + 1] = row
    end
    out.submissions[#out.submissions + 1] = sub
  end
  local totals = {slots = 0, done = 0, running = 0, pending = 0, failed = 0, missing = 0, not_submitted = 0}
  for _, s in pairs(latest) do
    totals.slots = totals.slots + 1
    totals[s] = totals[s] + 1
  end
  for slot in pairs(unsubmitted) do
    if not latest[slot] then totals.not_submitted = totals.not_submitted + 1 end
  end
  out.totals = totals
  return out
end

--- Prints the status as text.
function M.print(st)
  for _, why in ipairs(st.unreadable or {}) do io.stderr:write("rlx status: skipped ", why, "\n") end
  if #st.submissions == 0 then
    print("no Slurm submissions under " .. st.shards .. " (rlx submit)")
    return
  end
  local t = st.totals
  local refused = t.not_submitted > 0 and string.format("%d slots not submitted (sbatch refused their submission: " ..
    "run rlx submit again)", t.not_submitted) or nil
  if t.slots == 0 then
    print(string.format("%s: no slots submitted%s", st.db, refused and (": " .. refused) or ""))
  else
    print(string.format("%s: %d slots submitted: %d done, %d running, %d pending, %d failed, %d missing%s",
      st.db, t.slots, t.done, t.running, t.pending, t.failed, t.missing, refused and ("; " .. refused) or ""))
  end
  if st.note then print("  (" .. st.note .. ": running/pending unknown)") end
  for _, sub in ipairs(st.submissions) do
    print(string.format("submission %s: array job %s, collect job %s (%s)", sub.dir, tostring(sub.array_job or "-"),
      tostring(sub.collect_job or "-"), sub.collect_state))
    print(string.format("  %4s  %-12s %5s %5s %7s %7s %6s %7s", "task", "state", "slots", "done", "running", "pending",
      "failed", "missing"))
    for _, r in ipairs(sub.tasks) do
      print(string.format("  %4d  %-12s %5d %5d %7d %7d %6d %7d", r.task, r.state, r.slots, r.done, r.running,
        r.pending, r.failed, r.missing))
    end
  end
end

return M
