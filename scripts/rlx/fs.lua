-- rlx.fs: file outputs that are never lost or half-written. The work is C++
-- (engine/util/atomic_file.cpp via rlx._core.fs): a temporary file in the target's directory,
-- every write checked, fsync, rename; an output that is one of the inputs is refused.
local core = rlx._core.fs

local M = {}

--- Writes `text` to `path` atomically; opts.not_same_as names inputs (a path or an array of
--- paths) the output must not be. Returns the path. Errors name the path and the cause.
M.write_atomic = core.write_atomic

--- Writes several files, each as write_atomic does, all or none: every text goes to its temporary
--- file before any replaces its target, so a failure (a full disk) leaves every target as it was.
--- files: {{path, text}, ...}. Returns the number of files.
M.write_atomic_all = core.write_atomic_all

--- True when both paths exist and are the same file (device and inode, through symlinks and hard
--- links): how a command checks all its outputs against its inputs before writing any of them.
M.same_file = core.same_file

--- The names of the regular files in folder `dir`, sorted: rlx.fs.list(dir [, {suffix = ".csv",
--- missing_ok = true, not_only_regular = true}]) (a missing folder is an error unless missing_ok,
--- then an empty list; not_only_regular lists every entry that is not a folder, FIFOs and links to
--- devices too, so a reader can refuse them by name instead of skipping them).
M.list = core.list

--- Checks, before the work that produces it, that `path` can be written as `kind`:
--- "folder" (files go into it; created with its parents when missing), "file" (replaced whole: its
--- directory must exist and take a new file; a directory or an SQLite database there is refused),
--- "append" (as "file", and an existing file must be appendable) or "database" (an SQLite file: its
--- directory must exist, never created; an existing file must be an SQLite database this process can
--- write). opts: create (false in a dry run: nothing is made), create_parent (make a file's
--- directory), allow_sqlite (the output is a database itself), what (the flag or option that named
--- the path, put first: "--log-dir: ..."). Raises one line naming the path, the cause and the fix;
--- returns path. Details: engine/util/output_check.h.
function M.check_output(path, kind, opts)
  rlx.errors.expect("rlx.fs.check_output", path, "string", "a path (a string)")
  opts = opts or {}
  local what = opts.what
  local o = {create = opts.create, create_parent = opts.create_parent, allow_sqlite = opts.allow_sqlite}
  local ok, err = pcall(core.check_output, path, kind, o)
  if not ok then
    rlx.errors.raise("rlx.fs.check_output", (what and (what .. ": ") or "") .. rlx.errors.message(err))
  end
  return path
end

--- For a CLI command: checks every output {path, kind, opts} (as check_output; nil paths are
--- skipped) before any work, and ends the program at the first that fails: "rlx CMD: <message>",
--- exit status 1.
function M.check_outputs(cmd, list)
  for _, out in ipairs(list) do
    if out[1] ~= nil then
      local ok, err = pcall(M.check_output, out[1], out[2], out[3])
      if not ok then
        rlx.errors.pass_exits(err)
        rlx.fail(1, "rlx " .. cmd .. ": " .. rlx.errors.message(err))
      end
    end
  end
end

--- True when the file at path is an SQLite database (starts with SQLite's header).
M.is_sqlite = core.is_sqlite

--- The text of a file a user named, by rlx's one rule for reading such files
--- (engine/util/text_file.h): opened without blocking, a regular file only (a FIFO, a device, a
--- socket or a folder is refused at once), at most opts.max_bytes bytes (default 64 MiB).
--- rlx.fs.read(path [, {what = "the kit's env_info.md", max_bytes = N, missing_ok = true}]) ->
--- text, or nil for a missing file with missing_ok. Errors are one line naming the file and the fix.
M.read = core.read

--- The ends of a file a user named, by the same rule, without reading what lies between:
--- rlx.fs.read_ends(path [, {what =, head_bytes = 65536, tail_bytes = 1, missing_ok = true}]) ->
--- its first head_bytes, its last tail_bytes and its size in bytes (nil for a missing file with
--- missing_ok). How an appender reads a header and whether the file ends in a newline.
M.read_ends = core.read_ends

--- Checks a file a user named by the same rule without reading it: its size in bytes, or nil for a
--- missing file with missing_ok. rlx.fs.check_file(path [, {what =, missing_ok =}]).
M.check_file = core.check_file

--- rlx.fs.write_atomic for the CLI: "-" is stdout (checked on flush), and an error ends the
--- program with status 1 and "<cmd>: <message>", without the Lua position.
function M.write_output(cmd, path, text, opts)
  if path == "-" then
    local ok, err = io.stdout:write(text)
    if ok then ok, err = io.stdout:flush() end
    if not ok then rlx.fail(1, cmd .. ": cannot write to stdout: " .. tostring(err)) end
    return path
  end
  local ok, err = pcall(core.write_atomic, path, text, opts)
  if not ok then
    rlx.errors.pass_exits(err)
    rlx.fail(1, cmd .. ": " .. rlx.errors.message(err))
  end
  return path
end

return M
