-- rlx.json: JSON text <-> Lua values, through nlohmann::json in the host. encode(value, indent)
-- (indent: spaces per level, or nil for one line); decode(text). Arrays are tables with keys
-- 1..n; an empty table encodes as {}; nil fields are left out.
local core = rlx._core.host
return {encode = core.json_encode, decode = core.json_decode}
