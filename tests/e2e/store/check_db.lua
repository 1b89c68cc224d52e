-- check_db.lua: prints a database's counts for the shell tests:
-- "ok=N failed=N samples=N orphans=N envs=N integrity=ok", then " running=N" and " crashed=N"
-- when there are claims of those states (--set db=PATH).
local db = rlx.db.open(rlx.params.db, {readonly = true})
local function n(sql) return db:first(sql).n end
local running = n("SELECT count(*) AS n FROM runs WHERE status = 'running'")
local crashed = n("SELECT count(*) AS n FROM runs WHERE status = 'crashed'")
print(string.format("ok=%d failed=%d samples=%d orphans=%d envs=%d integrity=%s%s%s",
  n("SELECT count(*) AS n FROM runs WHERE status = 'ok'"), n("SELECT count(*) AS n FROM runs WHERE status = 'failed'"),
  n("SELECT count(*) AS n FROM samples"),
  n("SELECT count(*) AS n FROM samples WHERE run_id NOT IN (SELECT id FROM runs)"),
  n("SELECT count(*) AS n FROM environments"), db:integrity_check(),
  running > 0 and (" running=" .. running) or "", crashed > 0 and (" crashed=" .. crashed) or ""))
