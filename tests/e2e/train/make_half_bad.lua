-- make_half_bad.lua: an ImageFolder at --set dir=D with one class of 2 good JPEGs (jpeg16.lua's
-- 16x16 gradient) and 2 files of random bytes, and a second class folder "b" of 2 good JPEGs
-- (issue 25 finding 8).
local root = assert(rlx.params.dir, "--set dir=")
local jpeg = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "jpeg16.lua")
local function write(path, bytes)
  local f = assert(io.open(path, "wb"))
  f:write(bytes)
  f:close()
end
os.execute("mkdir -p '" .. root .. "/train/a' '" .. root .. "/train/b'")
write(root .. "/train/a/1.jpg", jpeg)
write(root .. "/train/a/2.jpg", jpeg)
math.randomseed(7)
for i = 3, 4 do
  local bytes = {}
  for k = 1, 600 do bytes[k] = string.char(math.random(0, 255)) end
  write(root .. "/train/a/" .. i .. ".jpg", table.concat(bytes))
end
write(root .. "/train/b/1.jpg", jpeg)
write(root .. "/train/b/2.jpg", jpeg)
