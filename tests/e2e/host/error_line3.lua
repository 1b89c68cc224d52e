-- Raises on line 3: the error must read "error_line3.lua:3:" and exit with status 1.
local x = 1
error("something went wrong with x = " .. x)
