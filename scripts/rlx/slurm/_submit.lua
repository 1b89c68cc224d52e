-- rlx.slurm._submit: `rlx submit` (docs/scale-out.md). Plans the script in a child `rlx -e` that
-- runs it as --dry-run does (so --set values are converted by the host, exactly as `rlx run` does,
-- and the script's side effects stay out of this process), keeps the slots not stored ok anywhere
-- and not already queued, writes the submission directory and calls sbatch twice.
local S = require("rlx.slurm._array")
local study_mod = require("rlx.study")
local show = require("rlx.show")
local q = S.quote

local M = {}

local function plain(v)
  local t = type(v)
  if t == "string" or t == "number" or t == "boolean" then return v end
  return nil
end

--- In the planning child (`rlx -e ... --set ...`): runs SCRIPT with rlx.flags.dry_run set and
--- writes to OUT the plan of every study:sweep it calls: {params = rlx.params (converted values),
--- studies = {{name, path, label, items = {{label, key, run}}}}}.
function M._plan_child(script, out, ...)
  local studies = {}
  local cache = S.abspath(rlx.calibrate.cache_db())
  local entries = {}
  -- The planning child's context (rlx.study's, explicit): each study opened is recorded, except
  -- rlx's own cache of this machine's calibrations (read by the layout rule, rlx.plan.layout),
  -- which is no study of the script's and is not submitted; each sweep's plan is recorded before
  -- it prints the dry run exactly as `rlx run --dry-run` does.
  local ctx = {
    opened = function(s)
      if S.abspath(s.path) == cache then return end
      local entry = {name = s.name, path = S.abspath(s.path), label = s.env.label, items = {}}
      studies[#studies + 1] = entry
      entries[s] = entry
    end,
    planned = function(s, items)
      local entry = entries[s]
      if not entry then return end
      for _, it in ipairs(items) do
        -- ranks: a data-parallel run needs as many Slurm tasks (the array asks for the most).
        entry.items[#entry.items + 1] = {label = it.label, key = it.key, run = it.run,
          ranks = it.config and it.config.ranks or 1}
      end
    end,
  }
  rlx.flags.dry_run = true
  local args = {[0] = script, ...}
  _G.arg, rlx.args = args, args
  -- The script's failure goes back to rlx submit as data (the plan file's `error`), said there in
  -- one line: rlx's own planning frames are no part of the user's problem (issue 48 item 10).
  local function failed(message)
    S.write_file(out, rlx.json.encode({error = message}))
    rlx.fail(1, "")
  end
  local read, text = pcall(rlx.fs.read, script, {what = "the script"})
  if not read then failed(rlx.errors.message(rlx.errors.pass_exits(text))) end
  local chunk, err = load(text, "@" .. script)
  if not chunk then failed(tostring(err)) end
  local ran, raised = pcall(study_mod._with_context, ctx, chunk, ...)
  if not ran then
    rlx.errors.pass_exits(raised)
    failed(tostring(raised))
  end
  local params = {}
  for k, v in pairs(rlx.params or {}) do
    if type(k) == "string" then params[k] = plain(v) end
  end
  S.write_file(out, rlx.json.encode({params = params, studies = studies}))
end

-- Runs the planning child and returns its plan.
local function plan(o, exe)
  -- Planned on a node, the plan file must be on storage both machines see: the current directory.
  local out = o.plan_on_node and string.format("%s/.rlx-submit-plan-%d.json", S.cwd(), math.random(1, 1e9)) or
    os.tmpname()
  local code = string.format("require('rlx.slurm._submit')._plan_child(%s)",
    table.concat((function()
      local parts = {string.format("%q", o.script), string.format("%q", out)}
      for _, a in ipairs(o.script_args) do parts[#parts + 1] = string.format("%q", a) end
      return parts
    end)(), ", "))
  -- No shell: the child is rlx (or srun) itself, so a SIGTERM or Ctrl-C of rlx submit reaches it
  -- (rlx._core.host.run), and the plan file is removed whatever happens (finding 9).
  local cmd = {exe, "-e", code}
  if o.plan_on_node then
    -- The plan depends on the devices rlx.devices() reports, so plan where the tasks will run.
    local srun = {"srun", "--ntasks=1", "--job-name=" .. (o.job_name or "rlx") .. "-plan"}
    if o.partition then srun[#srun + 1] = "--partition=" .. o.partition end
    if o.gres then srun[#srun + 1] = "--gres=" .. o.gres end
    if o.time then srun[#srun + 1] = "--time=" .. o.time end
    for _, a in ipairs(o.sbatch_arg) do srun[#srun + 1] = a end
    for _, w in ipairs(cmd) do srun[#srun + 1] = w end
    cmd = srun
  end
  for _, kv in ipairs(o.set) do
    cmd[#cmd + 1] = "--set"
    cmd[#cmd + 1] = kv
  end
  io.stdout:flush()
  local ran, status = pcall(rlx._core.host.run, cmd)
  local text = S.read_file(out)
  os.remove(out)
  if not ran then error(status, 0) end
  local got, planned = pcall(rlx.json.decode, text or "")
  if got and type(planned) == "table" and planned.error then
    rlx.fail(1, string.format("rlx submit: planning %s failed: %s; check it with: rlx run %s --dry-run", o.script,
      show.printable(planned.error), o.script))
  end
  if status ~= 0 or not text or text == "" then
    rlx.fail(1, string.format("rlx submit: planning %s failed (see above); check it with: rlx run %s --dry-run%s",
      o.script, o.script, o.plan_on_node and " (inside srun on the partition)" or ""))
  end
  return rlx.json.decode(text)
end

-- The submission directory's name: the UTC time, made unique.
local function new_submission_dir(root)
  local stamp = os.date("!%Y%m%dT%H%M%SZ")
  local dir, n = root .. "/" .. stamp, 1
  while S.read_file(dir .. "/manifest.json") or S.sh("test -e " .. q(dir)) do
    n = n + 1
    dir = string.format("%s/%s-%d", root, stamp, n)
  end
  return dir
end

-- Slots queued or running in earlier submissions whose array job Slurm still knows.
local function in_flight(root)
  local busy, jobs, notes = {}, {}, {}
  local manifests = {}
  for _, path in ipairs(S.manifests(root)) do
    -- A manifest that cannot be read hides jobs that may still run its slots: submitting them again
    -- would run them twice (issue 56 item 7: it was skipped silently).
    local m, why = S.try_manifest(path)
    if not m then
      rlx.fail(1, "rlx submit: cannot tell which slots an earlier submission still runs: " .. why)
    end
    if m.array_job then
      manifests[#manifests + 1] = m
      jobs[#jobs + 1] = tostring(m.array_job)
    end
  end
  local queue, err = S.squeue(jobs)
  if not queue then
    -- Without squeue's answer every slot of those jobs looks pending: submitting them now could run
    -- them twice (issue 56 item 7: a warning, then a blind resubmission).
    rlx.fail(1, string.format("rlx submit: cannot ask squeue whether earlier submissions' jobs (%s) still run " ..
      "their slots (%s); nothing was submitted, since submitting now could run those slots twice: run the same " ..
      "command again where squeue answers (a login node of the cluster: squeue -j %s must work)",
      table.concat(jobs, ", "), tostring(err), table.concat(jobs, ",")))
  end
  for _, m in ipairs(manifests) do
    local q_tasks = queue[tostring(m.array_job)]
    if q_tasks then
      for t, task in ipairs(m.tasks) do
        local state = q_tasks[tostring(t - 1)]
        if state and state ~= "COMPLETED" and state ~= "CANCELLED" and state ~= "FAILED" then
          for _, slot in ipairs(task.slots) do busy[slot.slot] = m.array_job end
        end
      end
    end
  end
  return busy, notes
end

-- The sbatch script of the array (one line per option, so it documents itself and can be
-- submitted again by hand).
local function task_script(m, o)
  for _, v in ipairs({m.cwd, m.dir, m.study}) do
    if tostring(v):find("[\r\n%z]") then
      rlx.fail(1, string.format("rlx submit: %q holds a line break or NUL, which an sbatch script cannot hold; " ..
        "run from (and name) paths without one", tostring(v)))
    end
  end
  local L = {"#!/bin/bash",
    "# rlx submit: one array task per shard of study " .. m.study .. " (" .. m.dir .. "/manifest.json).",
    "#SBATCH --job-name=" .. o.job_name,
    string.format("#SBATCH --array=0-%d", #m.tasks - 1),
    "#SBATCH --chdir=" .. m.cwd,
    "#SBATCH --output=" .. m.dir .. "/logs/task-%a.out"}
  if o.partition then L[#L + 1] = "#SBATCH --partition=" .. o.partition end
  if o.gres then L[#L + 1] = "#SBATCH --gres=" .. o.gres end
  if o.time then L[#L + 1] = "#SBATCH --time=" .. o.time end
  -- Data-parallel runs: each array task is an allocation of that many tasks; the shard's rlx runs
  -- in the batch step and starts a run's ranks as one srun step inside it (docs/scale-out.md).
  if (m.ranks or 1) > 1 then L[#L + 1] = "#SBATCH --ntasks=" .. m.ranks end
  for _, a in ipairs(o.sbatch_arg) do L[#L + 1] = "#SBATCH " .. a end
  L[#L + 1] = "exec " .. q(m.rlx) .. " shard run " .. q(m.dir .. "/manifest.json")
  return table.concat(L, "\n") .. "\n"
end

local function collect_script(m, o)
  local L = {"#!/bin/bash",
    "# rlx submit: merges the shards of study " .. m.study .. " into " .. m.db .. ", draws figures, writes the report.",
    "#SBATCH --job-name=" .. o.job_name .. "-collect",
    "#SBATCH --chdir=" .. m.cwd,
    "#SBATCH --output=" .. m.dir .. "/logs/collect.out"}
  if o.partition then L[#L + 1] = "#SBATCH --partition=" .. o.partition end
  if o.time then L[#L + 1] = "#SBATCH --time=" .. o.time end
  for _, a in ipairs(o.sbatch_arg) do L[#L + 1] = "#SBATCH " .. a end
  L[#L + 1] = "exec " .. q(m.rlx) .. " shard collect " .. q(m.dir .. "/manifest.json")
  return table.concat(L, "\n") .. "\n"
end

local function sbatch(args)
  local ok, out, err = S.sh("sbatch --parsable " .. args)
  local id = ok and S.trim(out):match("^(%d+)")
  return id, S.trim(err ~= "" and err or out)
end

--- Plans, shards and submits; o is the parsed `rlx submit` command line.
-- The environment label names the node type (docs/scale-out.md). Without --set label=/env= or
-- RLX_ENV, the partition names it; without a partition the machine running rlx submit would,
-- which is rarely the nodes' type, so that is said.
local function default_label(o)
  for _, kv in ipairs(o.set) do
    if kv:match("^label=") or kv:match("^env=") then return nil end
  end
  if (os.getenv("RLX_ENV") or "") ~= "" then return nil end
  if o.partition then
    o.set[#o.set + 1] = "env=" .. o.partition:gsub("[^%w%-%.]", "-")
    return nil
  end
  return "submit: the runs are labelled with this machine's environment label; name the nodes' type with " ..
    "--set label=NAME (or --partition) when they differ from it"
end

function M.submit(o)
  if not o.dry_run and not S.sh("command -v sbatch") then
    rlx.fail(1, "rlx submit: no sbatch on PATH: run rlx submit where Slurm's client commands are (a login " ..
      "node; Debian: apt install slurm-client), or plan only with --dry-run")
  end
  local exe = S.executable()
  local label_note = default_label(o)
  local p = plan(o, exe)
  if label_note then print(label_note) end
  if #p.studies == 0 then
    rlx.fail(1, string.format("rlx submit: %s opened no study (rlx.study{...}): nothing to submit", o.script))
  end
  local db = p.studies[1].path
  for _, s in ipairs(p.studies) do
    if s.path ~= db then
      rlx.fail(1, string.format("rlx submit: %s opens studies in two databases (%s, %s); a submission collects into " ..
        "one: give every rlx.study the same db=", o.script, db, s.path))
    end
  end
  local root = S.shards_root(db)
  local dbs = {db}
  for _, path in ipairs(S.shard_databases(root)) do dbs[#dbs + 1] = path end
  local stored, unreadable = S.slot_states(dbs)
  for _, u in ipairs(unreadable) do io.stderr:write("rlx submit: skipped unreadable database " .. u .. "\n") end
  local busy, notes = in_flight(root)
  for _, n in ipairs(notes) do io.stderr:write("rlx submit: " .. n .. "\n") end

  local pending, planned, done, queued, seen = {}, 0, 0, 0, {}
  for _, s in ipairs(p.studies) do
    for _, it in ipairs(s.items) do
      local slot = S.slot_key(s.name, s.label, it.key, it.run)
      if not seen[slot] then
        seen[slot] = true
        planned = planned + 1
        if stored[slot] and stored[slot].ok > 0 then
          done = done + 1
        elseif busy[slot] then
          queued = queued + 1
        else
          pending[#pending + 1] = {slot = slot, study = s.name, env = s.label, label = it.label, key = it.key, run = it.run,
            ranks = it.ranks or 1}
        end
      end
    end
  end
  print(string.format("submit: %d slots planned, %d stored ok, %d queued in earlier submissions, %d to submit",
    planned, done, queued, #pending))
  if #pending == 0 then
    print("submit: nothing to submit (follow with: rlx status " .. db .. ")")
    return 0
  end
  local ntasks = math.min(o.tasks or #pending, #pending)
  local m = {version = S.MANIFEST_VERSION, study = p.studies[1].name, db = db, script = S.abspath(o.script),
    args = o.script_args, params = p.params, rlx = exe, cwd = S.cwd(), created_at = os.date("!%Y-%m-%dT%H:%M:%SZ"),
    command = o.command, figures = S.abspath(o.figures), report = S.abspath(o.report), studies = {}, tasks = {},
    sbatch = {partition = o.partition, gres = o.gres, time = o.time, args = o.sbatch_arg}}
  for _, s in ipairs(p.studies) do m.studies[#m.studies + 1] = {name = s.name, label = s.label} end
  for t = 1, ntasks do m.tasks[t] = {labels = {}, slots = {}} end
  m.ranks = 1
  for _, item in ipairs(pending) do m.ranks = math.max(m.ranks, item.ranks) end
  for i, item in ipairs(pending) do
    local task = m.tasks[(i - 1) % ntasks + 1]
    task.slots[#task.slots + 1] = item
    task.labels[#task.labels + 1] = item.label
  end
  o.job_name = o.job_name or ("rlx-" .. m.study)
  if o.dry_run then
    m.dir = root .. "/<submission>"
    for t, task in ipairs(m.tasks) do
      print(string.format("task %d: %s", t - 1, table.concat(task.labels, " ")))
    end
    io.write(task_script(m, o))
    print("submit: dry run, nothing written or submitted")
    return 0
  end
  m.dir = new_submission_dir(root)
  S.mkdir(m.dir .. "/logs")
  S.write_manifest(m)
  S.write_file(m.dir .. "/task.sbatch", task_script(m, o))
  S.write_file(m.dir .. "/collect.sbatch", collect_script(m, o))
  local array, err = sbatch(q(m.dir .. "/task.sbatch"))
  if not array then
    rlx.fail(1, string.format("rlx submit: sbatch refused the array (%s); nothing was submitted. The scripts are in %s",
      err, m.dir))
  end
  m.array_job = array
  S.write_manifest(m)
  local collect, cerr = sbatch("--dependency=afterany:" .. array .. " " .. q(m.dir .. "/collect.sbatch"))
  if not collect then
    rlx.fail(1, string.format("rlx submit: array job %s is queued, but sbatch refused the collect job (%s); when " ..
      "the array is done, collect by hand: rlx shard collect %s/manifest.json", array, cerr, m.dir))
  end
  m.collect_job = collect
  S.write_manifest(m)
  print(string.format("submit: study %s: %d slots in job array %s (%d tasks), collect job %s (afterany:%s)",
    m.study, #pending, array, ntasks, collect, array))
  print(string.format("submit: shards in %s; follow with: rlx status %s", m.dir, db))
  return 0
end

return M
