-- rlx.memory: how much memory a training run may still take here, cgroup limits included.
--
--   local m = rlx.memory.available()   -- {available_bytes=, mem_available_bytes=, cgroup=, ...}
--
-- The kernel's MemAvailable (/proc/meminfo) says what the machine could give; a container or a
-- Slurm job is usually capped lower by its memory cgroup, and exceeding that cap is what brings
-- the OOM killer. So the answer is the smaller of MemAvailable and, for the process's memory
-- cgroup and each of its ancestors, limit minus usage: cgroup v2 (memory.max, memory.current,
-- "max" = no limit) or v1 (memory.limit_in_bytes, memory.usage_in_bytes, a huge value = no
-- limit). Everything is read from files; `root` (tests) prefixes every path.
local M = {}

local function read(path)
  local f = io.open(path, "r")
  if not f then return nil end
  local text = f:read("*a")
  f:close()
  return text
end

local function number_in(path)
  local text = read(path)
  return text and tonumber(text:match("^%s*(%d+)")) or nil
end

-- The tightest limit - usage from dir up to the mount point, with the limit it came from.
local function tightest(mount, path, limit_file, usage_file)
  local best, best_limit, best_usage
  local dir = path
  while true do
    local base = mount .. (dir == "/" and "" or dir)
    local limit, usage = number_in(base .. "/" .. limit_file), number_in(base .. "/" .. usage_file)
    if limit and usage and limit < 2 ^ 60 then
      local left = math.max(limit - usage, 0)
      if not best or left < best then best, best_limit, best_usage = left, limit, usage end
    end
    if dir == "/" or dir == "" then break end
    dir = dir:match("^(.*)/[^/]*$")
    if dir == "" then dir = "/" end
  end
  return best, best_limit, best_usage
end

--- {available_bytes, mem_available_bytes, cgroup ("v2", "v1" or nil), cgroup_limit_bytes,
--- cgroup_usage_bytes}: available_bytes is the smaller of MemAvailable and the cgroup's room.
function M.available(opts)
  local root = type(opts) == "table" and opts.root or ""
  local out = {}
  local meminfo = read(root .. "/proc/meminfo") or ""
  local kb = tonumber(meminfo:match("MemAvailable:%s*(%d+)%s*kB"))
  out.mem_available_bytes = kb and kb * 1024 or nil
  local cg = read(root .. "/proc/self/cgroup") or ""
  local v1 = cg:match("%d+:[^:\n]*memory[^:\n]*:([^\n]*)")
  local v2 = cg:match("0::([^\n]*)")
  local room, limit, usage
  if v1 then
    room, limit, usage = tightest(root .. "/sys/fs/cgroup/memory", v1, "memory.limit_in_bytes", "memory.usage_in_bytes")
    if room then out.cgroup = "v1" end
  end
  if not room and v2 then
    for _, mount in ipairs({root .. "/sys/fs/cgroup", root .. "/sys/fs/cgroup/unified"}) do
      room, limit, usage = tightest(mount, v2, "memory.max", "memory.current")
      if room then out.cgroup = "v2"; break end
    end
  end
  out.cgroup_limit_bytes, out.cgroup_usage_bytes = limit, usage
  out.available_bytes = out.mem_available_bytes
  if room and (not out.available_bytes or room < out.available_bytes) then out.available_bytes = room end
  return out
end

return M
