-- rlx.slurm._array: a study as one Slurm job array (docs/scale-out.md). `rlx submit SCRIPT` plans the
-- study's matrix as `rlx run SCRIPT --dry-run` does, keeps the slots not yet stored ok (in the study
-- database or any shard database), splits them round-robin into shards, and submits one array task
-- per shard plus one job that depends on the array (afterany) and collects the shards into the study
-- database (scripts/rlx/slurm/_shard.lua). Everything a submission needs is in one directory,
-- results/shards/<db name>/<submission>/: manifest.json, task.sbatch, collect.sbatch, logs/, and
-- the task-<N>.db each array task writes, so tasks on shared storage never contend for one file.
--
-- A slot is (study, environment label, configuration key, repeat): the identity a sweep resumes by,
-- with the environment named by its label rather than its machine id, because the nodes of a
-- partition are one environment to the study (their host names differ; each run's node is stored).
local M = {}

M.MANIFEST_VERSION = 1

--- Quotes a string for sh.
function M.quote(s)
  return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end
local q = M.quote

-- The text of a file, nil when it is missing or cannot be read (by rlx's rule for reading a file:
-- a FIFO there is refused, not waited on).
local function read_file(path)
  local read, text = pcall(rlx.fs.read, path, {missing_ok = true})
  if not read then
    rlx.errors.pass_exits(text)
    return nil
  end
  return text
end
M.read_file = read_file

-- Whether something is at path: a file, or anything rlx's rule refuses to read (named then as
-- unreadable, not skipped).
local function present(path)
  local ok, size = pcall(rlx.fs.check_file, path, {missing_ok = true})
  if not ok then rlx.errors.pass_exits(size) end
  return not ok or size ~= nil
end

--- Runs a shell command; returns ok, stdout, stderr (the command's output is captured in files).
function M.sh(cmd)
  local out, err = os.tmpname(), os.tmpname()
  local status = os.execute(string.format("(%s) >%s 2>%s", cmd, q(out), q(err)))
  local o, e = read_file(out) or "", read_file(err) or ""
  os.remove(out)
  os.remove(err)
  return status == 0 or status == true, o, e
end

local function trim(s) return (tostring(s):gsub("^%s+", ""):gsub("%s+$", "")) end
M.trim = trim

local cwd_cache
--- The current directory (physical path).
function M.cwd()
  if not cwd_cache then
    local ok, out = M.sh("pwd -P")
    cwd_cache = ok and trim(out) or (os.getenv("PWD") or ".")
  end
  return cwd_cache
end

--- PATH made absolute against the current directory (no normalisation of '..').
function M.abspath(path)
  if path:sub(1, 1) == "/" then return path end
  return (M.cwd() .. "/" .. path:gsub("^%./", ""))
end

function M.dirname(path)
  local d = path:match("^(.*)/[^/]*$")
  if d == nil then return "." end
  if d == "" then return "/" end
  return d
end

--- The rlx executable running now ($RLX_BIN overrides): array tasks run the same binary, so it
--- must be on storage the compute nodes share. The shell's parent is this process.
function M.executable()
  local bin = os.getenv("RLX_BIN")
  if bin and bin ~= "" then return M.abspath(bin) end
  local ok, out = M.sh("readlink -f /proc/$PPID/exe")
  if not ok or trim(out) == "" then
    rlx.fail(1, "rlx submit: cannot find this rlx executable (/proc/self/exe); set RLX_BIN=/path/to/rlx")
  end
  return trim(out)
end

--- Creates a folder and its parents, as every rlx output folder is made (rlx.fs.check_output, engine/
--- util/output_check: no shell); a failure ends the program (exit 1) naming the path and the cause.
function M.mkdir(path)
  local ok, err = pcall(rlx.fs.check_output, path, "folder", {create = true})
  if not ok then rlx.fail(1, "rlx: " .. rlx.errors.message(rlx.errors.pass_exits(err))) end
end

--- Writes text to path atomically (rlx.fs: a temporary file in the same directory, then a
--- rename), so a reader (an array task, a concurrent `rlx status`) never sees half a file.
function M.write_file(path, text)
  return rlx.fs.write_output("rlx", path, text)
end

-- What is wrong with a decoded manifest m, or nil: the fields every reader uses (a manifest
-- without them printed "submission nil"; issue 56 item 7).
local function manifest_problem(m)
  if type(m) ~= "table" then return "it is not a JSON object" end
  if m.version ~= M.MANIFEST_VERSION then
    return string.format("its version is %s, not %d", tostring(m.version), M.MANIFEST_VERSION)
  end
  for _, k in ipairs({"dir", "study", "db"}) do
    if type(m[k]) ~= "string" or m[k] == "" then return string.format("field '%s' is missing", k) end
  end
  if type(m.tasks) ~= "table" or #m.tasks == 0 then return "field 'tasks' is missing or empty" end
  for t, task in ipairs(m.tasks) do
    if type(task) ~= "table" or type(task.slots) ~= "table" then
      return string.format("task %d has no 'slots' list", t - 1)
    end
  end
  for _, k in ipairs({"array_job", "collect_job"}) do
    if m[k] ~= nil and not tostring(m[k]):match("^%d+$") then
      return string.format("field '%s' is not a Slurm job id: %s", k, tostring(m[k]))
    end
  end
  return nil
end

--- Reads and checks a submission's manifest.json: by rlx's rule for files a user names (a FIFO or
--- a folder is refused at once, not waited on: rlx.fs.read), with every field its readers use.
--- Returns the manifest, or nil and one line naming the file, what is wrong and the fix (Ctrl-C
--- passes through).
function M.try_manifest(path)
  local read, text = pcall(rlx.fs.read, path, {what = "the submission manifest", missing_ok = true,
    max_bytes = 256 * 1048576})
  if not read then return nil, rlx.errors.message(rlx.errors.pass_exits(text)) end
  if not text then return nil, string.format("no manifest at '%s' (a submission directory holds manifest.json)", path) end
  local ok, m = pcall(rlx.json.decode, text)
  local why = not ok and "it is not valid JSON" or manifest_problem(m)
  if why then
    return nil, string.format("'%s' is not a usable rlx submission manifest (version %d): %s; rlx submit wrote it: " ..
      "restore it from a backup, or move its submission folder away and submit again", path, M.MANIFEST_VERSION, why)
  end
  m.manifest_path = M.abspath(path)
  return m
end

--- M.try_manifest, ending the program (exit 1, "rlx: " and the line) when the manifest is unusable.
function M.read_manifest(path)
  local m, why = M.try_manifest(path)
  if not m then rlx.fail(1, "rlx: " .. why) end
  return m
end

function M.write_manifest(m)
  local copy = {}
  for k, v in pairs(m) do if k ~= "manifest_path" then copy[k] = v end end
  M.write_file(m.dir .. "/manifest.json", rlx.json.encode(copy, 1) .. "\n")
end

--- The key of a slot; items and stored runs both map to it.
function M.slot_key(study, env_label, config_key, run)
  return table.concat({tostring(study), tostring(env_label), tostring(config_key), tostring(run)}, "|")
end

--- Where the shards of the study database DB live: <db dir>/shards/<db name without .db>.
function M.shards_root(db)
  local stem = db:match("([^/]+)$"):gsub("%.db$", "")
  return M.dirname(db) .. "/shards/" .. stem
end

-- The lines `ls ARGS` prints (none when nothing matches).
local function ls_lines(args)
  local ok, out = M.sh("ls " .. args .. " 2>/dev/null")
  local list = {}
  if ok then
    for line in out:gmatch("[^\n]+") do list[#list + 1] = line end
  end
  return list
end

--- Every submission's manifest under the shards root, oldest first (directories are UTC stamps).
function M.manifests(root)
  local list = ls_lines("-1d " .. q(root) .. "/*/manifest.json")
  table.sort(list)
  return list
end

--- The shard databases under root (task-<N>.db of every submission), newest submission first.
function M.shard_databases(root)
  local list = ls_lines("-1 " .. q(root) .. "/*/task-*.db")
  table.sort(list, function(a, b)
    local da, db = M.dirname(a), M.dirname(b)
    if da ~= db then return da > db end
    return a < b
  end)
  return list
end

--- The stored runs of the given databases, by slot: {[slot] = {ok = n, failed = n, running = n,
--- other = n}}; databases that are missing or unreadable are listed in the second result.
function M.slot_states(paths)
  local states, unreadable = {}, {}
  for _, path in ipairs(paths) do
    local ok, db = pcall(rlx.db.open, path, {readonly = true})
    if ok then
      local qok, rows = pcall(db.slot_statuses, db)
      if qok then
        for _, r in ipairs(rows) do
          local key = M.slot_key(r.study, r.env, r.config_key, r.run)
          local s = states[key] or {ok = 0, failed = 0, running = 0, other = 0}
          local field = (r.status == "ok" or r.status == "failed" or r.status == "running") and r.status or "other"
          s[field] = s[field] + 1
          states[key] = s
        end
      else
        unreadable[#unreadable + 1] = path .. ": " .. tostring(rows)
      end
      db:close()
    elseif present(path) then
      unreadable[#unreadable + 1] = path .. ": " .. tostring(db)
    end
  end
  return states, unreadable
end

--- Slurm's view of the given job ids: {[job id] = {[array task id or "-"] = STATE}}; nil and a
--- message when squeue cannot be asked.
function M.squeue(job_ids)
  if #job_ids == 0 then return {} end
  local ok, out, err = M.sh("squeue -h -r -o '%A %F %K %T' -j " .. q(table.concat(job_ids, ",")))
  if not ok then
    -- A job id Slurm has forgotten makes squeue fail; ask again one by one.
    if #job_ids > 1 and err:match("Invalid job id") then
      local all = {}
      for _, id in ipairs(job_ids) do
        local one = M.squeue({id})
        if one then for k, v in pairs(one) do all[k] = v end end
      end
      return all
    end
    if err:match("Invalid job id") then return {} end
    return nil, trim(err)
  end
  local jobs = {}
  for line in out:gmatch("[^\n]+") do
    local _, array_id, task, state = line:match("^(%S+)%s+(%S+)%s+(%S+)%s+(%S+)")
    if array_id then
      jobs[array_id] = jobs[array_id] or {}
      jobs[array_id][task == "N/A" and "-" or task] = state
    end
  end
  return jobs
end

return M
