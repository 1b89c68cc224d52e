-- A syntax error: the script never runs and rlx exits 1 naming the line.
local function broken(
print("unreachable")
