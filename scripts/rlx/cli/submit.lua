-- rlx submit: runs a study on a Slurm cluster as one job array (scripts/rlx/slurm/_submit.lua,
-- docs/scale-out.md).
local args = require("rlx.cli._args")
local S = require("rlx.slurm._array")
local submit = require("rlx.slurm._submit")
local M = {summary = "run a study script on Slurm: one job array of shards, then a collect job",
  synopsis = "submit FILE.lua [--set k=v]... [options]"}

local cmd = {name = "submit", usage = "rlx submit FILE.lua [--set key=value]... [options] [-- script args]",
  description = "Plans FILE.lua's matrix as 'rlx run FILE.lua --dry-run' does, keeps the slots not yet stored ok\n" ..
    "(in the study database or any shard database under <db dir>/shards/) and not queued in an earlier\n" ..
    "submission, and submits them with sbatch as one job array, one task per shard; each task runs its\n" ..
    "slots into its own database. A second job (afterany on the array) merges the shards into the study\n" ..
    "database, draws the figures and writes the report. Run the same command again after failures or\n" ..
    "cancellations: it submits only what is missing. Follow progress with 'rlx status DB'.",
  options = {
    {"set", "--set", type = "string_list", metavar = "KEY=VALUE",
      help = "a parameter for the script, as with rlx run (repeatable)"},
    {"partition", "--partition", metavar = "P", help = "Slurm partition (sbatch --partition)"},
    {"gres", "--gres", metavar = "G", help = "generic resources per array task, e.g. gpu:1 (sbatch --gres)"},
    {"time", "--time", metavar = "T", help = "time limit per job, e.g. 1:00:00 (sbatch --time)"},
    {"tasks", "--tasks", type = "integer", min = 1, max = 10000, metavar = "N",
      help = "array tasks (shards); default one per pending slot"},
    {"sbatch_arg", "--sbatch-arg", type = "string_list", metavar = "ARG",
      help = "one more sbatch option for both jobs, e.g. --sbatch-arg=--account=lab (repeatable)"},
    {"job_name", "--job-name", metavar = "NAME", help = "Slurm job name (default rlx-<study>)"},
    {"figures", "--figures", metavar = "DIR", path = "output_dir", default = "figures",
      help = "where the collect job draws the figures"},
    {"report", "--report", metavar = "DIR", path = "output_dir", default = "report",
      help = "where the collect job writes the report"},
    {"plan_on_node", "--plan-on-node", type = "boolean",
      help = "plan on a node of the partition (srun), so the plan sees the nodes' devices, not this machine's"},
    {"dry_run", "--dry-run", type = "boolean", help = "plan and print the shards and the sbatch script; submit nothing"},
  },
  positionals = {{"script", path = "file"}, {"script_args", rest = true, optional = true}},
  epilog = "Each run records its Slurm job id, array task id and node. Environment: RLX_BIN (the rlx the\n" ..
    "tasks run; default this one, which must be on storage the nodes share), SLURM_CONF."}

-- Values that become lines of the sbatch scripts (issue 25 finding 9: --sbatch-arg=$'--account=lab\n
-- echo INJECTED' added a line the job ran). A line break in one would start a new line of the
-- script; a job name is also checked against what sbatch reads safely.
function M.check_sbatch_values(o)
  local flags = {{"partition", "--partition"}, {"gres", "--gres"}, {"time", "--time"}, {"job_name", "--job-name"},
    {"figures", "--figures"}, {"report", "--report"}}
  local values = {}
  for _, f in ipairs(flags) do values[#values + 1] = {f[2], o[f[1]]} end
  for _, a in ipairs(o.sbatch_arg) do values[#values + 1] = {"--sbatch-arg", a} end
  -- The value on one line, its line breaks and NULs written as \n, \r, \0.
  local function shown(s) return "'" .. s:gsub("\n", "\\n"):gsub("\r", "\\r"):gsub("%z", "\\0") .. "'" end
  for _, v in ipairs(values) do
    if v[2] and v[2]:find("[\r\n%z]") then
      args.usage_error("submit", string.format("%s %s holds a line break or NUL: each value is one line of the " ..
        "sbatch script (one option per --sbatch-arg)", v[1], shown(v[2])))
    end
  end
  if o.job_name and not o.job_name:match("^[%w%._%-]+$") then
    args.usage_error("submit", string.format("--job-name %s: a job name may hold letters, digits, '.', '_' and '-' " ..
      "only", shown(o.job_name)))
  end
end

function M.main(...)
  local argv = {...}
  local o = args.parse(cmd, argv)
  if not o then return 0 end
  o.script_args = o.rest
  -- --set is checked here as rlx run checks it (a refusal in the planning child exited 1).
  for _, kv in ipairs(o.set) do
    local why = rlx._core.host.check_set(kv)
    if why then args.usage_error("submit", why) end
  end
  M.check_sbatch_values(o)
  -- Checked without opening it for reading (a FIFO would block): the one rule for a user's files.
  local present, why = pcall(rlx.fs.check_file, o.script, {what = "the script", missing_ok = true})
  if not present then rlx.fail(2, "rlx submit: " .. rlx.errors.message(rlx.errors.pass_exits(why))) end
  if why == nil then rlx.fail(2, "rlx submit: no script '" .. o.script .. "'") end
  -- The collect job draws and writes there: a file or a FIFO in their place is refused now, not on
  -- the cluster at the end (made by the job, never here).
  rlx.fs.check_outputs("submit", {{o.figures, "folder", {create = false, what = "--figures"}},
    {o.report, "folder", {create = false, what = "--report"}}})
  local words = {"rlx", "submit"}
  for _, a in ipairs(argv) do words[#words + 1] = S.quote(a) end
  o.command = table.concat(words, " ")
  return submit.submit(o)
end

M._cmd = cmd  -- its flags and positionals, for tests that walk every command (path_slots.sh)
return M
