-- Makes a database hold another run in one slot, as a rerun on the same machine would: the run
-- labelled `label` gets a new id and the given images/s (and status), its samples, counters,
-- complexity and roofline points dropped. Used by identity.sh to test the merge's slot rule in
-- `rlx report A.db B.db` (issue 56 item 2).
-- Usage: rlx run slot_rerun.lua --set db=PATH --set label=LABEL --set images_per_s=X [--set status=failed]
local P = rlx.params.declare{
  db = {type = "string", required = true, help = "a copy of a study database (changed in place)"},
  label = {type = "string", required = true, help = "the run to replace"},
  images_per_s = {type = "number", min = 0, default = 0, help = "its new images/s (0: keep)"},
  status = {type = "string", one_of = {"ok", "failed"}, default = "ok", help = "its new status"},
  keep_id = {type = "boolean", default = false, help = "keep the run's id (change its status or images/s only)"},
}
local db = rlx.db.open(P.db)
local row = db:first("SELECT id FROM runs WHERE label = ?", P.label)
if not row then rlx.fail(1, "no run labelled " .. P.label) end
db:transaction(function()
  local id = row.id
  if not P.keep_id then
    for _, t in ipairs({"samples", "counters", "complexity", "roofline_points"}) do
      db:exec("DELETE FROM " .. t .. " WHERE run_id = ?", id)
    end
    id = rlx.db.new_id()
    db:exec("UPDATE runs SET id = ? WHERE id = ?", id, row.id)
  end
  if P.images_per_s > 0 then db:exec("UPDATE runs SET images_per_s = ? WHERE id = ?", P.images_per_s, id) end
  db:exec("UPDATE runs SET status = ? WHERE id = ?", P.status, id)
end)
db:exec("PRAGMA wal_checkpoint(TRUNCATE)")
db:close()
print("replaced " .. P.label)
