-- A script that computes and reads before it declares (no action): --help lists its parameter,
-- whatever the text of the file says ("params" "." "declare" is never written in one piece here).
local params = rlx.params
local decl = "dec" .. "lare"
local text = io.open(debug.getinfo(1, "S").source:sub(2), "r"):read("*a")
local P = params[decl]{lines = {type = "integer", default = select(2, text:gsub("\n", "")), help = "lines read"}}
print(P.lines)
