-- rlx.json: JSON text <-> Lua values, through nlohmann::json in the host. encode(value, indent)
-- (indent: spaces per level, or nil for one line); decode(text). Arrays are tables with keys
-- 1..n; an empty table encodes as {}; nil fields are left out, rlx.json.null is JSON null.
local errors = require("rlx.errors")
local core = rlx._core.host

local function encode(value, indent)
  if indent ~= nil and (type(indent) ~= "number" or indent ~= math.floor(indent) or indent < 0) then
    errors.raise("rlx.json.encode", "the indent (argument 2) must be an integer >= 0 (spaces per level) or nil " ..
      "(one line), got " .. (type(indent) == "number" and tostring(indent) or type(indent)))
  end
  return core.json_encode(value, indent)
end

return {encode = encode, decode = core.json_decode, null = core.json_null()}
