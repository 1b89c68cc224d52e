-- rlx.json: JSON text <-> Lua values, through nlohmann::json in the host. encode(value, indent)
-- (indent: spaces per level, 0 to MAX_INDENT, or nil for one line); decode(text). Arrays are
-- tables with keys 1..n; an empty table encodes as {}; nil fields are left out, rlx.json.null is
-- JSON null.
local errors = require("rlx.errors")
local core = rlx._core.host

-- The most spaces per level: more is no layout anyone reads, and every line of a deep value would
-- carry depth * indent spaces (nlohmann's dump also wrote heap bytes past 1024; the host refuses
-- more than this too).
local MAX_INDENT = 64

local function encode(value, indent)
  if indent ~= nil and (type(indent) ~= "number" or indent ~= math.floor(indent) or indent < 0) then
    errors.raise("rlx.json.encode", "the indent (argument 2) must be an integer >= 0 (spaces per level) or nil " ..
      "(one line), got " .. (type(indent) == "number" and tostring(indent) or type(indent)))
  end
  if indent ~= nil and indent > MAX_INDENT then
    errors.raise("rlx.json.encode", "the indent (argument 2) must be at most " .. MAX_INDENT .. " spaces per level, got " ..
      string.format("%.0f", indent) .. ": give 0 to " .. MAX_INDENT .. " (2 is usual), or nil for one line")
  end
  return core.json_encode(value, indent)
end

return {encode = encode, decode = core.json_decode, null = core.json_null()}
