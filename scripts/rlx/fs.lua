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
