-- rlx._startup_text: what a process chose when it started (engine/startup/startup.h), in words, for
-- the report, `rlx train --verbose`, `rlx version` and `rlx env`. It reads the fields of a
-- `startup` table (rlx.version().startup, a run's result.startup) and nothing else: C++ writes no
-- text that Lua reads back.
local M = {}

-- The user's OpenMP settings, OMP_WAIT_POLICY first: "OMP_WAIT_POLICY=PASSIVE, GOMP_SPINCOUNT=123".
local function settings_text(env)
  local names = {}
  for k in pairs(env or {}) do
    if k ~= "OMP_WAIT_POLICY" then names[#names + 1] = k end
  end
  table.sort(names)
  if (env or {}).OMP_WAIT_POLICY then table.insert(names, 1, "OMP_WAIT_POLICY") end
  local parts = {}
  for i, k in ipairs(names) do parts[i] = k .. "=" .. tostring(env[k]) end
  return table.concat(parts, ", ")
end

local function load_text(w)
  return string.format("%.1f other cores busy at start", tonumber(w.other_cores) or -1)
end

-- "0.27 ms at 27.12 ns a spin, measured", or where no spin was timed, where the count comes from.
local function spin_text(w)
  local ns = tonumber(w.spin_ns) or 0
  if ns > 0 then
    return string.format("%.2f ms at %.2f ns a spin, measured", (tonumber(w.spin_count) or 0) * ns / 1e6, ns)
  end
  return "a spin not measurable here: the count chosen on a 2-core EPYC"
end

-- The invalid settings rlx ignored: "; OMP_WAIT_POLICY=banana ignored (not a valid value: as if unset)".
local function ignored_text(w)
  if type(w.ignored) ~= "table" or next(w.ignored) == nil then return "" end
  return "; " .. settings_text(w.ignored) .. " ignored (not a valid value: as if unset)"
end

--- One line for how OpenMP threads wait (`startup.openmp_wait`), e.g. "openmp: GOMP_SPINCOUNT=9733, a
--- short spin before sleeping (0.27 ms at 27.74 ns a spin, measured): 2.0 other cores busy at start
--- (a long spin holds a core the other thread needs)".
function M.openmp(w)
  if type(w) ~= "table" then return "openmp: not recorded" end
  local c, text = w.choice
  if c == "short_spin" then
    text = string.format("GOMP_SPINCOUNT=%d, a short spin before sleeping (%s): %s (a long spin holds a core the " ..
      "other thread needs)", tonumber(w.spin_count) or 0, spin_text(w), load_text(w))
  elseif c == "libgomp_default" then
    text = "libgomp's default waiting (spin, then sleep): " .. load_text(w)
  elseif c == "environment" then
    text = "waiting left as the environment sets it (" .. settings_text(w.environment) .. ")"
  elseif c == "load_unknown" then
    text = "libgomp's default waiting (the machine's load could not be read)"
  elseif c == "failed" then
    text = "libgomp's default waiting: " .. load_text(w) .. ", but " .. tostring(w.error)
  elseif c == "not_chosen" then
    text = "libgomp's default waiting (not chosen in this program)"
  else
    text = tostring(w.text or c)
  end
  return "openmp: " .. text .. ignored_text(w)
end

--- The kind of a run's OpenMP waiting, for counting runs: "libgomp's default", "a short spin (other
--- processes busy at start)", "as the environment set it (OMP_WAIT_POLICY=PASSIVE)".
function M.openmp_kind(w)
  if type(w) ~= "table" then return nil end
  if w.choice == "short_spin" then return "a short spin (other processes busy at start)" end
  if w.choice == "environment" then return "as the environment set it (" .. settings_text(w.environment) .. ")" end
  return "libgomp's default"
end

local THP_KINDS = {asked = "the training heap in transparent huge pages", not_asked = "not asked",
  always = "the heap in transparent huge pages", never = "none",
  environment = "left as the environment sets the allocator", mode_unknown = "not asked", failed = "not asked"}

--- The kind of a run's huge pages (`startup.huge_pages`), for counting runs: "not asked", "none", ...
function M.huge_pages_kind(h)
  if type(h) ~= "table" then return nil end
  return THP_KINDS[h.choice] or tostring(h.text or h.choice)
end

--- Why this process started again ("huge pages", ...), or nil when it did not.
function M.restarts(s)
  if type(s) ~= "table" or type(s.restarts) ~= "table" or #s.restarts == 0 then return nil end
  local words = {}
  for i, r in ipairs(s.restarts) do words[i] = (tostring(r):gsub("_", " ")) end
  return table.concat(words, ", ")
end

return M
