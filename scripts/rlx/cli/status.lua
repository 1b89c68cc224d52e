-- rlx status: progress of a study's Slurm submissions across its shards (scripts/rlx/slurm_status.lua).
local args = require("rlx.cli.args")
local M = {summary = "slots of a study's Slurm submissions: done, running, pending, failed, missing",
  synopsis = "status DB [--json]"}

local cmd = {name = "status", usage = "rlx status DB [--json]",
  description = "For the study database DB, reads every submission under <db dir>/shards/<db name>/ (rlx submit),\n" ..
    "the runs stored in DB and in every shard database, and squeue, and prints per submission and array\n" ..
    "task how many slots are done (an ok run is stored), running, pending, failed or missing (the task\n" ..
    "ended without storing the slot: resubmit with the same rlx submit command). 'rlx runs' lists runs.",
  options = {{"json", "--json", type = "boolean", help = "print JSON"}},
  positionals = {{"db"}}}

function M.main(...)
  local o = args.parse(cmd, {...})
  if not o then return 0 end
  local S = require("rlx.slurm")
  local db = S.abspath(o.db)
  if not S.read_file(db) and #S.manifests(S.shards_root(db)) == 0 then
    rlx.fail(1, string.format("rlx status: no database at '%s' and no submissions under %s (check the path)", o.db,
      S.shards_root(db)))
  end
  local st = require("rlx.slurm_status").status(db)
  if o.json then
    print(rlx.json.encode(st, 1))
  else
    require("rlx.slurm_status").print(st)
  end
  return 0
end

return M
