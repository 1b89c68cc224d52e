-- The bound of every stored roofline point (the study wrote it with rlx.roofline.for_run) against
-- the report's for the run's row (Table 2's records): one roof policy, so they agree (issue 45).
-- A row near the ridge states no bound, which agrees with neither: it is counted as a disagreement.
-- Usage: rlx run bounds_agree.lua --set db=PATH; prints "bounds agree: k of n".
local P = rlx.params.declare{db = {type = "string", required = true, help = "a study database"}}
local db = rlx.db.open(P.db, {readonly = true})
local D = require("rlx.studydb.data").load(db, nil, P.db)
local by_label = {}
for _, rec in ipairs(require("rlx.report.table2").records(D)) do
  for label in rec.labels:gmatch("%S+") do by_label[label] = rec end
end
local n, agree = 0, 0
for _, p in ipairs(db:points{level = "dram"}) do
  local rec = by_label[p.label]
  if rec and p.bound then
    n = n + 1
    local said = rec.near_ridge and "near the ridge" or rec.bound
    if said == p.bound then agree = agree + 1 else print(string.format("%s: stored %s, report %s", p.label, p.bound, said)) end
  end
end
db:close()
print(string.format("bounds agree: %d of %d", agree, n))
if agree ~= n or n == 0 then rlx.fail(1, "bounds differ") end
