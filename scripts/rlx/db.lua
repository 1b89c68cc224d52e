-- rlx.db: the SQLite study database from Lua (natives in host/bindings/bind_db.cpp).
--
--   local conn = rlx.db.open("results/cpu.db")
--   local rows = conn:query("SELECT label, images_per_s FROM runs WHERE model = ?", "resnet50")
--   conn:transaction(function() conn:exec("DELETE FROM runs WHERE status = ?", "failed") end)
--
-- Parameters are always bound ('?'), never spliced into the SQL text. Opening migrates an older
-- schema; a file that is not an rlx database, or is read-only when writing, fails naming the file.
local errors = require("rlx.errors")
local frame = require("rlx.frame")
local core = rlx._core.db

local M = {}

--- Opens (creating when missing, unless create=false or readonly=true) the database at path.
function M.open(path, opts)
  errors.expect("rlx.db.open", path, "string", "a database path (a string)")
  return core.open(path, opts)
end

-- Methods added to every connection, beside the natives (first, exec, begin, commit,
-- rollback, in_transaction, path, schema_version, integrity_check, readonly, merge_from, close).
local conn_mt = debug.getregistry()["rlx.db.connection"]
local methods = conn_mt.__index

--- conn:query(sql, ...) and its other name conn:sql: the rows as a frame (rlx.frame) that keeps
--- the SELECT's column order, so it prints as a table in that order.
local native_query = methods._query
function methods.query(conn, sql, ...)
  local rows, columns = native_query(conn, sql, ...)
  return frame.new(rows, columns)
end
methods.sql = methods.query

--- Runs fn(...) inside one transaction: committed when fn returns, rolled back when it raises
--- (the error, a Ctrl-C error object included, is re-raised unchanged). Returns fn's results.
function methods.transaction(conn, fn, ...)
  if getmetatable(conn) ~= conn_mt then
    errors.raise("conn:transaction", "called with '.' instead of ':' (use conn:transaction(fn, ...))")
  end
  errors.expect("conn:transaction", fn, "function", "a function")
  conn:begin()
  local res = {pcall(fn, ...)}
  if not res[1] then
    pcall(conn.rollback, conn)
    error(res[2], 0)
  end
  conn:commit()
  return unpack(res, 2, table.maxn(res))
end

-- rlx.json's codec under the database's name (JSON columns): the same functions, errors included.
M.encode = rlx.json.encode      -- value [, indent] -> JSON text
M.decode = rlx.json.decode      -- JSON text -> value
M.new_id = core.new_id          -- random 128-bit run id (32 hex digits)
M.hash = core.hash              -- content hash of a value (16 hex digits; object keys sorted)
M.now = core.now                -- UTC time "YYYY-MM-DDTHH:MM:SSZ"
M.schema_version = core.schema_version()

--- The SQLite side files beside a database a command only reads (`-wal`, `-shm`) that exist now:
--- {["-wal"] = true, ...}. A read-only connection to a database in WAL mode makes both in a folder it
--- can write, and cannot remove them when it closes (issue 55: `rlx report` left them beside its
--- input; `rlx merge` did too); M._tidy_side_files removes the ones it made.
function M._side_files(path)
  local out = {}
  for _, suffix in ipairs({"-wal", "-shm"}) do
    local ok, size = pcall(rlx.fs.check_file, path .. suffix, {missing_ok = true})
    if ok and size then out[suffix] = true end
  end
  return out
end

--- Removes, once every connection to `path` is closed, the side files M._side_files did not see
--- before it was opened: the write-ahead log only when it is empty (nothing was written through it,
--- so no other process's changes are in it), then the shared-memory index that went with it.
function M._tidy_side_files(path, before)
  local wal = path .. "-wal"
  if not before["-wal"] then
    local ok, size = pcall(rlx.fs.check_file, wal, {missing_ok = true})
    if not (ok and (size == nil or size == 0)) then return end
    if size == 0 then os.remove(wal) end
  end
  if not before["-shm"] and not before["-wal"] then os.remove(path .. "-shm") end
end

return M
