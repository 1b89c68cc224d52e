-- rlx.peaks: the roofs of a roofline. Published figures of common GPUs (rlx.peaks._datasheet, with
-- entries users add or override through define) and the measured peaks of this machine
-- (rlx.peaks.measure, C++ in engine/peaks). Units are decimal: GFLOP/s and GB/s.
local options = require("rlx.options")
local errors = require("rlx.errors")
local builtin = require("rlx.peaks._datasheet")
local core = rlx._core.peaks

local M = {}

local NUMBER_FIELDS = {"fp64_gflops", "fp64_tensor_gflops", "fp32_gflops", "fp16_gflops", "bf16_gflops",
  "tf32_tensor_gflops", "fp16_tensor_gflops", "bf16_tensor_gflops", "dram_gbps", "l1_gbps", "l2_gbps",
  "l3_gbps", "memory_gb"}

local user_entries = {}  -- from define, searched before the built-in table; the latest wins

--- The form names are compared in: lower case, "nvidia"/"tesla"/"geforce" words dropped, '-' and
--- '_' as spaces, runs of spaces collapsed. "Tesla V100-SXM2-16GB" -> "v100 sxm2 16gb".
function M.normalize_name(name)
  errors.expect("rlx.peaks.normalize_name", name, "string", "a device name (string)")
  local s = " " .. name:lower():gsub("[-_]", " ") .. " "
  for _, word in ipairs({"nvidia", "tesla", "geforce"}) do s = s:gsub(" " .. word .. " ", " ") end
  return (s:gsub("%s+", " "):gsub("^ ", ""):gsub(" $", ""))
end

local function copy(t)
  local out = {}
  for k, v in pairs(t) do out[k] = type(v) == "table" and copy(v) or v end
  return out
end

local function matches(entry, key)
  if M.normalize_name(entry.name) == key then return true end
  for _, m in ipairs(entry.match or {}) do
    if M.normalize_name(m) == key then return true end
  end
  return false
end

--- The datasheet entry for a device name as the driver reports it, or nil. Matching: the name
--- and every `match` alias of an entry are normalized (normalize_name) and compared for equality;
--- user entries (define) are searched first, newest first. Returns a copy.
function M.datasheet(name)
  errors.expect("rlx.peaks.datasheet", name, "string", "a device name (string)")
  local key = M.normalize_name(name)
  for i = #user_entries, 1, -1 do
    if matches(user_entries[i], key) then return copy(user_entries[i]) end
  end
  for _, e in ipairs(builtin) do
    if matches(e, key) then
      local out = copy(e)
      out.origin = "builtin"
      return out
    end
  end
  return nil
end

--- Names of every entry (user entries first), for listings.
function M.list()
  local names, seen = {}, {}
  for i = #user_entries, 1, -1 do
    local n = user_entries[i].name
    if not seen[n] then names[#names + 1] = n; seen[n] = true end
  end
  for _, e in ipairs(builtin) do
    if not seen[e.name] then names[#names + 1] = e.name; seen[e.name] = true end
  end
  return names
end

--- Adds an entry, or overrides the entry any of its names match. Returns the stored entry.
function M.define(entry)
  local spec = {
    name = {type = "string", required = true},
    match = {type = "string_list"},
    source = {type = "string", required = true},
    sources = {type = "string_list"},
    notes = {type = "string"},
    architecture = {type = "string"},
    derived = {type = "string_list"},
  }
  for _, f in ipairs(NUMBER_FIELDS) do spec[f] = {type = "number", min = 0} end
  local o = options.check("rlx.peaks.define", entry, spec)
  if type(o.match) == "string" then o.match = {o.match} end
  if type(o.derived) == "string" then o.derived = {o.derived} end
  if type(o.sources) == "string" then o.sources = {o.sources} end
  local any = false
  for _, f in ipairs(NUMBER_FIELDS) do any = any or (o[f] ~= nil and f ~= "memory_gb") end
  if not any then
    errors.raise("rlx.peaks.define", "entry '" .. o.name .. "' has no peak figure (give at least one of " ..
      "fp32_gflops, dram_gbps, ...)")
  end
  o.origin = "user"
  user_entries[#user_entries + 1] = o
  return copy(o)
end

--- Forgets every entry added with define (tests, REPL sessions).
function M.reset()
  user_entries = {}
end

--- Measures this machine's peaks (see docs/lua-api/peaks.md). CUDA results carry the matching
--- datasheet entry as `datasheet` when there is one.
function M.measure(opts)
  errors.expect("rlx.peaks.measure", opts, "table|nil", "a table of options")
  local p = core.measure(opts)
  p.source = "measured"
  -- Each figure's quality in the form the store keeps (numbers only: study:store_peaks and
  -- rlx peaks --db store every numeric field): the relative spread, (best - worst) / best, under
  -- spread; <field>_median, <field>_repeats and <field>_attempts beside the best; the CPU share
  -- of a figure that time-sharing lowers (wall clock) as <field>_cpu_share; quick_mode 1 (quick)
  -- or 0 (full). rlx.roofline.peak_quality reads either form.
  p.spread = {}
  for field, st in pairs(p.stats or {}) do
    p.spread[field] = st.spread_pct / 100
    p[field .. "_median"], p[field .. "_repeats"], p[field .. "_attempts"] = st.median, st.repeats, st.attempts
    local d = type(p.details) == "table" and p.details[field] or nil
    if type(d) == "table" and type(d.cpu_share) == "number" and (p.clock ~= "cpu" or field:match("^gemm_")) then
      p[field .. "_cpu_share"] = d.cpu_share
    end
  end
  if type(p.quick) == "boolean" then
    p.quick_mode = p.quick and 1 or 0
    -- In words, for every reader: a quick figure (small sizes, short runs) reads below the full one.
    p.mode = p.quick and "quick" or "full"
  end
  p.measured_at = os.date("!%Y-%m-%dT%H:%M:%SZ")
  if p.device == "cuda" and p.name then p.datasheet = M.datasheet(p.name) end
  return p
end

M.cpu_info = core.cpu_info
--- best, median, worst, spread_pct and repeats of an array of rates (C++, engine/peaks).
function M.summarize(rates)
  errors.expect("rlx.peaks.summarize", rates, "table", "a non-empty array of numbers")
  return core.summarize(rates)
end
M.fields = NUMBER_FIELDS

return M
