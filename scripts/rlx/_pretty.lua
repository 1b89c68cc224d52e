-- rlx._pretty: formats Lua values for people (the REPL prints with it). Tables are shown with
-- nesting and indentation, array parts first, keys sorted; long arrays and deep nesting are cut
-- ("... 94 more") so printing a run with 1000 samples stays readable. Numbers print with up to
-- 6 significant digits unless they are integers.
local M = {}

local function fmt_number(n)
  if n ~= n then return "nan" end
  if n == math.huge then return "inf" elseif n == -math.huge then return "-inf" end
  if n == math.floor(n) and math.abs(n) < 1e15 then return string.format("%d", n) end
  return string.format("%.6g", n)
end

local function fmt_key(k)
  if type(k) == "string" and k:match("^[%a_][%w_]*$") then return k end
  if type(k) == "number" then return "[" .. fmt_number(k) .. "]" end
  return "[" .. string.format("%q", tostring(k)) .. "]"
end

local function scalar(v)
  local t = type(v)
  if t == "string" then return (string.format("%q", v):gsub("\\\n", "\\n")) end
  if t == "number" then return fmt_number(v) end
  return tostring(v)
end

local function format(v, opts, depth, seen, indent)
  if type(v) ~= "table" then return scalar(v) end
  if seen[v] then return "<cycle>" end
  if depth >= opts.depth then return "{...}" end
  seen[v] = true
  local n = #v
  local parts, shown = {}, 0
  for i = 1, n do
    if shown >= opts.max_items then
      parts[#parts + 1] = string.format("... %d more", n - shown)
      break
    end
    parts[#parts + 1] = format(v[i], opts, depth + 1, seen, indent .. "  ")
    shown = shown + 1
  end
  local keys = {}
  for k in pairs(v) do
    if not (type(k) == "number" and k >= 1 and k <= n and k == math.floor(k)) then keys[#keys + 1] = k end
  end
  table.sort(keys, function(a, b)
    if type(a) == type(b) and (type(a) == "string" or type(a) == "number") then return a < b end
    return type(a) < type(b)
  end)
  local kshown = 0
  for _, k in ipairs(keys) do
    if kshown >= opts.max_items then
      parts[#parts + 1] = string.format("... %d more keys", #keys - kshown)
      break
    end
    parts[#parts + 1] = fmt_key(k) .. " = " .. format(v[k], opts, depth + 1, seen, indent .. "  ")
    kshown = kshown + 1
  end
  seen[v] = nil
  if #parts == 0 then return "{}" end
  local one_line = "{" .. table.concat(parts, ", ") .. "}"
  if #one_line + #indent <= opts.width and not one_line:find("\n") then return one_line end
  return "{\n" .. indent .. "  " .. table.concat(parts, ",\n" .. indent .. "  ") .. "\n" .. indent .. "}"
end

--- The keys of t, sorted (by cmp when given): how rlx lists names in messages, help and reports.
function M.sorted_keys(t, cmp)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, cmp)
  return keys
end

--- format(value, {depth = 4, max_items = 20, width = 100}) -> string
function M.format(value, opts)
  opts = opts or {}
  local o = {depth = opts.depth or 4, max_items = opts.max_items or 20, width = opts.width or 100}
  return format(value, o, 0, {}, "")
end

return M
