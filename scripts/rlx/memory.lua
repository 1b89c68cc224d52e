-- rlx.memory: how much memory a training run may still take here, cgroup limits included.
--
--   local m = rlx.memory.available()   -- {available_bytes=, mem_available_bytes=, cgroup=, ...}
--
-- The reading is C++ (engine/env/memory.h, as everything that measures the machine): the smaller
-- of the kernel's MemAvailable and, for this process's memory cgroup and its ancestors, limit minus
-- usage (cgroup v2 or v1). `root` (tests) prefixes every path.
local options = require("rlx.options")
local core = rlx._core.env
local M = {}

--- {available_bytes, mem_available_bytes, cgroup ("v2", "v1" or nil), cgroup_limit_bytes,
--- cgroup_usage_bytes}: available_bytes is the smaller of MemAvailable and the cgroup's room.
function M.available(opts)
  local o = options.check("rlx.memory.available", opts, {root = {type = "string", default = ""}})
  return core.memory_available(o.root)
end

return M
