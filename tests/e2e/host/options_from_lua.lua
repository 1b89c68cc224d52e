-- A Lua-level option check fails at the user's line (line 4), not inside scripts/rlx/.
local function sweep(opts) return rlx.options.check("study:sweep", opts, {repeats = {type = "integer", min = 1}}) end
assert(sweep{repeats = 3}.repeats == 3)
sweep{repaets = 3}
