-- check_db.lua: prints a database's counts for the shell tests:
-- "ok=N failed=N samples=N orphans=N integrity=ok" (--set db=PATH).
local db = rlx.db.open(rlx.params.db, {readonly = true})
local function n(sql) return db:first(sql).n end
print(string.format("ok=%d failed=%d samples=%d orphans=%d envs=%d integrity=%s",
  n("SELECT count(*) AS n FROM runs WHERE status = 'ok'"), n("SELECT count(*) AS n FROM runs WHERE status <> 'ok'"),
  n("SELECT count(*) AS n FROM samples"),
  n("SELECT count(*) AS n FROM samples WHERE run_id NOT IN (SELECT id FROM runs)"),
  n("SELECT count(*) AS n FROM environments"), db:integrity_check()))
