-- rlx.slurm._shard: the two halves of a submission that run on the cluster (docs/scale-out.md).
--   run(manifest, task): one array task. Runs the study script with the submission's --set values,
--     every study it opens redirected into the task's own database (task-<N>.db beside the
--     manifest) with the planned environment label, and every sweep limited to the task's slots
--     (study:sweep's `only`). Figures and reports are left to the collect job.
--   collect(manifest): the job that depends on the array. Merges every shard database of the study
--     (every submission, newest first) into the study database, keeps one run per slot (an ok run
--     replaces failed or interrupted attempts of the same slot, as a rerun does on one machine),
--     draws the figures and writes the report (rlx.report.write: report.md, report.html and its
--     own figures/ in the --report folder).
local S = require("rlx.slurm._array")
local show = require("rlx.show")
local study_mod = require("rlx.study")
local figures = require("rlx.figures")

local M = {}

local function task_index(m, task)
  local env = os.getenv("SLURM_ARRAY_TASK_ID")
  local t = task
  if t == nil and env ~= nil and env ~= "" then
    t = rlx.options._from_text({type = "integer", min = 0}, env)
    if not t then
      rlx.fail(2, string.format("rlx shard run: SLURM_ARRAY_TASK_ID is '%s', not a task number: run inside the " ..
        "array job rlx submit made (Slurm sets it), or give TASK (0-%d) after the manifest",
        show.printable(env), #m.tasks - 1))
    end
  end
  if not t then
    rlx.fail(2, "rlx shard run: which task? give TASK (0-" .. (#m.tasks - 1) .. ") or run inside the array job " ..
      "(SLURM_ARRAY_TASK_ID)")
  end
  if t ~= math.floor(t) or t < 0 or t >= #m.tasks then
    rlx.fail(2, string.format("rlx shard run: task %s is not in this submission (0-%d)", tostring(t), #m.tasks - 1))
  end
  return t
end

--- The database task t of a submission writes.
function M.task_db(m, t) return string.format("%s/task-%d.db", m.dir, t) end

function M.run(manifest_path, task)
  local m = S.read_manifest(manifest_path)
  -- The script to run (collect needs none).
  if type(m.script) ~= "string" or m.script == "" then
    rlx.fail(1, string.format("rlx shard run: '%s' names no script (field 'script' is missing): rlx submit writes " ..
      "it; submit again, or run the script by hand", manifest_path))
  end
  local t = task_index(m, task)
  local labels = m.tasks[t + 1].labels
  local shard_db = M.task_db(m, t)
  local env_label = {}
  for _, s in ipairs(m.studies) do env_label[s.name] = s.label end
  for k, v in pairs(m.params or {}) do rlx.params[k] = v end
  rlx.flags.dry_run = false
  print(string.format("shard %d of %s: %d slots of study %s into %s (job %s, node %s)", t, m.dir, #labels, m.study,
    shard_db, os.getenv("SLURM_ARRAY_JOB_ID") or os.getenv("SLURM_JOB_ID") or "-",
    os.getenv("SLURMD_NODENAME") or "-"))
  -- The task's context (rlx.study's, explicit): its own database and label; its slots only, for
  -- the sweep and for what the study's plan estimates against its budget (the budget is each
  -- task's: the tasks run side by side); figures and the report are the collect job's, since a
  -- task sees only its shard.
  local ctx = {
    open = function(o)
      o.db = shard_db
      o.label = env_label[o.name] or o.label
      return o
    end,
    only = function(s) return env_label[s.name] and labels or {} end,
    later = "(written by the collect job of the submission)",
  }
  local args = {[0] = m.script}
  for i, a in ipairs(m.args or {}) do args[i] = a end
  _G.arg, rlx.args = args, args
  -- Read by rlx's rule for a user's files (a FIFO is refused at once), then compiled under its name.
  local read, text = pcall(rlx.fs.read, m.script, {what = "the script"})
  if not read then rlx.fail(1, "rlx shard run: " .. rlx.errors.message(rlx.errors.pass_exits(text))) end
  local chunk, err = load(text, "@" .. m.script)
  if not chunk then rlx.fail(1, "rlx shard run: " .. tostring(err)) end
  study_mod._with_context(ctx, chunk, unpack(args))
  return 0
end

-- Deletes the runs of db that are not ok in a slot (study, environment label, configuration,
-- repeat) where `ok` (slot -> state, from rlx.slurm._array.slot_states) has an ok run: a failed or
-- interrupted attempt superseded by a later success, as a rerun replaces it on one machine. Done
-- before merging (the unique slot index would otherwise keep the stale row and skip the ok one) and
-- after (attempts from another node of the same environment label).
local function drop_superseded(db, ok)
  local ids = {}
  for _, r in ipairs(db:slot_statuses{not_ok = true}) do
    local s = ok[S.slot_key(r.study, r.env, r.config_key, r.run)]
    if s and s.ok > 0 then ids[#ids + 1] = r.id end
  end
  db:delete_runs{ids = ids}
end

-- Draws the figures of every study of the submission, and the report when this rlx has one.
local function figures_and_report(m, db)
  local failed = false
  for _, s in ipairs(m.studies) do
    local study = {db = db, name = s.name, path = m.db}
    local ok, fig = pcall(figures.draw, study, {dir = m.figures})
    if ok then
      print(string.format("collect: %d figures of %s in %s", #fig.files, s.name, m.figures))
    else
      failed = true
      io.stderr:write("collect: figures failed: " .. tostring(fig) .. "\n")
    end
    if package.preload["rlx.report"] then
      local rok, out = pcall(rlx.report.write, study, {dir = m.report, quiet = true})
      if rok then
        print(string.format("collect: report of %s: %s", s.name, out.html or out.markdown))
      else
        failed = true
        io.stderr:write("collect: report failed: " .. tostring(out) .. "\n")
      end
    else
      print("collect: no report: this rlx has no rlx.report")
    end
  end
  return failed
end

function M.collect(manifest_path)
  local m = S.read_manifest(manifest_path)
  local root = S.shards_root(m.db)
  local ok, db = pcall(rlx.db.open, m.db)
  if not ok then rlx.fail(1, "rlx shard collect: " .. tostring(db)) end
  local shards = S.shard_databases(root)
  local everywhere = S.slot_states((function()
    local all = {m.db}
    for _, p in ipairs(shards) do all[#all + 1] = p end
    return all
  end)())
  local before = db:count_runs{study = m.study}.n
  drop_superseded(db, everywhere)
  local bad = 0
  for _, path in ipairs(shards) do
    local mok, st = pcall(db.merge_from, db, path)
    if not mok then
      bad = bad + 1
      io.stderr:write(string.format("collect: %s not merged: %s\n", path, tostring(st)))
    end
  end
  drop_superseded(db, S.slot_states({m.db}))
  local counts = db:count_runs{study = m.study}
  print(string.format("collect: merged %d shard databases of %s into %s: study %s has %d runs (%d ok), %d before " ..
    "(failed or interrupted attempts of a slot stored ok stay in their shards only)", #shards - bad, root, m.db,
    m.study, counts.n, counts.ok or 0, before))
  local failed = figures_and_report(m, db)
  db:close()
  local dbs = {m.db}
  local stored = S.slot_states(dbs)
  local missing = 0
  for _, task in ipairs(m.tasks) do
    for _, slot in ipairs(task.slots) do
      if not (stored[slot.slot] and stored[slot.slot].ok > 0) then missing = missing + 1 end
    end
  end
  if missing > 0 then
    print(string.format("collect: %d slots of this submission are not stored ok; submit them again with: %s",
      missing, m.command or "the same rlx submit command"))
  end
  return (bad > 0 or failed) and 1 or 0
end

return M
