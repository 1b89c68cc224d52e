-- rlx shard: the commands a submission's jobs run (scripts/rlx/slurm/_shard.lua); also the way to
-- redo one shard or the collection by hand (docs/scale-out.md).
local args = require("rlx.cli._args")
local shard = require("rlx.slurm._shard")
local M = {summary = "run one shard of a Slurm submission, or collect the shards (what rlx submit's jobs run)",
  synopsis = "shard run|collect MANIFEST [TASK]"}

local cmd = {name = "shard", usage = "rlx shard run MANIFEST [TASK] | rlx shard collect MANIFEST",
  description = "MANIFEST is a submission's manifest.json (results/shards/<db>/<submission>/).\n" ..
    "  run: runs the slots of array task TASK (default $SLURM_ARRAY_TASK_ID) into task-TASK.db beside it.\n" ..
    "  collect: merges every shard database of the study into the study database (an ok run replaces\n" ..
    "  failed or interrupted attempts of its slot), draws the figures and writes the report.",
  positionals = {{"action"}, {"manifest", path = "file"}, {"task", optional = true}}}

function M.main(...)
  local o = args.parse(cmd, {...})
  if not o then return 0 end
  if o.action == "run" then
    local task = o.task and rlx.options._from_text({type = "integer", min = 0}, o.task)
    if o.task and not task then rlx.fail(2, "rlx shard run: TASK must be a number, got '" .. o.task .. "'") end
    return shard.run(o.manifest, task)
  elseif o.action == "collect" then
    if o.task then rlx.fail(2, "rlx shard collect: unexpected argument '" .. o.task .. "'") end
    return shard.collect(o.manifest)
  end
  args.usage_error("shard", "unknown action '" .. o.action .. "' (run or collect)")
end

M._cmd = cmd  -- its flags and positionals, for tests that walk every command (path_slots.sh)
return M
