-- rlx status: what a study database holds (slots by status; every crashed or running slot with its
-- attempts, how its process died and whether the next sweep retries it) and the progress of its
-- Slurm submissions across their shards (scripts/rlx/slurm/_status.lua).
local args = require("rlx.cli._args")
local S = require("rlx.slurm._array")
local study_mod = require("rlx.study")
local show = require("rlx.show")
local runs = require("rlx.cli.runs")
local slurm_status = require("rlx.slurm._status")
local M = {summary = "a study's slots: stored, crashed (with attempts and causes), and its Slurm submissions",
  synopsis = "status DB [--json]"}

local cmd = {name = "status", usage = "rlx status DB [--json]",
  description = "For the study database DB: how many slots are stored ok, failed, crashed (their process died)\n" ..
    "or running, and each crashed or running slot with its attempts, how each attempt died (signal, OOM\n" ..
    "killer, exit code) and whether the next sweep retries it (docs/study.md, \"Crashed slots\").\n" ..
    "Then every Slurm submission under <db dir>/shards/<db name>/ (rlx submit): per array task how many\n" ..
    "slots are done (an ok run is stored), running, pending, failed or missing (the task ended without\n" ..
    "storing the slot: resubmit with the same rlx submit command). 'rlx runs' lists runs.",
  options = {{"json", "--json", type = "boolean", help = "print JSON"}},
  positionals = {{"db", path = "database"}}}

-- What the next sweep does with an unfinished slot (a crashed or running row), as study:sweep's
-- claim would decide with the default max_attempts.
local function next_step(db, r)
  local peek = db:peek_claim{study = r.study, environment_id = r.environment_id, label = r.label, run = r["repeat"],
    config = r.config}
  if peek.state == "busy" then
    return peek, string.format("being trained by process %s on %s", tostring(r.pid), tostring(r.host))
  elseif peek.state == "claimed" then
    return peek, string.format("died %d time(s), last: %s; the next sweep retries it", #(peek.deaths or {}),
      tostring(peek.last_death))
  end
  return peek, "not retried: " .. study_mod.crash_advice(r.config or {}, peek, {max_attempts = 2}, r.label)
end

--- The runs of db by status and its unfinished slots: {runs, ok, failed, crashed, running,
--- unfinished = {{label, study, status, attempt, deaths, last_death, next}}}.
function M.stored(db)
  local st = {runs = 0, ok = 0, failed = 0, crashed = 0, running = 0, unfinished = {}}
  for _, r in ipairs(db:runs{}) do
    st.runs = st.runs + 1
    st[r.status] = (st[r.status] or 0) + 1
    if r.status == "crashed" or r.status == "running" then
      local peek, step = next_step(db, r)
      st.unfinished[#st.unfinished + 1] = {label = r.label, study = r.study, status = r.status,
        attempt = r.attempt or 1, deaths = #(peek.deaths or {}), last_death = peek.last_death, next = step}
    end
  end
  return st
end

local function print_stored(path, st)
  print(string.format("%s: %d runs stored: %d ok, %d failed, %d crashed, %d running", path, st.runs, st.ok, st.failed,
    st.crashed, st.running))
  for _, u in ipairs(st.unfinished) do
    print(show.printable(string.format("  %-8s %s: attempt %d; %s", u.status, u.label, u.attempt,
      u.next)))
  end
end

function M.main(...)
  local o = args.parse(cmd, {...})
  if not o then return 0 end
  local db = S.abspath(o.db)
  -- Looked at without opening it for reading: a FIFO is refused at once, not waited on.
  local present, size = pcall(rlx.fs.check_file, db, {what = "the database", missing_ok = true})
  if not present then rlx.fail(1, "rlx status: " .. rlx.errors.message(rlx.errors.pass_exits(size))) end
  local have_db = size ~= nil
  if not have_db and #S.manifests(S.shards_root(db)) == 0 then
    rlx.fail(1, string.format("rlx status: no database at '%s' and no submissions under %s (check the path)", o.db,
      S.shards_root(db)))
  end
  -- A file that is not an rlx database fails here, naming it (exit 1), not as "0 slots".
  local stored = have_db and M.stored(runs.open_readonly("status", o.db)) or nil
  local st = slurm_status.status(db)
  st.stored = stored
  if o.json then
    print(rlx.json.encode(st, 1))
  else
    if stored then print_stored(o.db, stored) end
    slurm_status.print(st)
  end
  return 0
end

M._cmd = cmd  -- its flags and positionals, for tests that walk every command (path_slots.sh)
return M
