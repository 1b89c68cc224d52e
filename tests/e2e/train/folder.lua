-- folder.lua: an ImageFolder of JPEGs written here (jpeg16.lua's 16x16 gradient) with one corrupt
-- file trains and reports exactly one skipped file.
local root = os.getenv("RLX_TEST_TMP") .. "/e2e_train_folder"
os.execute("rm -rf '" .. root .. "'")
local jpeg = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "jpeg16.lua")
local function write(path, bytes)
  local f = assert(io.open(path, "wb"))
  f:write(bytes)
  f:close()
end
for _, class in ipairs({"cat", "dog"}) do
  os.execute("mkdir -p '" .. root .. "/train/" .. class .. "'")
  for i = 1, 3 do write(root .. "/train/" .. class .. "/" .. i .. ".jpg", jpeg) end
end
write(root .. "/train/cat/corrupt.jpg", "not a jpeg at all")
local tiny = dofile("tests/e2e/train/tiny_model.lua")
local r = rlx.train{model = tiny, data = root, batch = 4, iters = 2, warmup = 1, input = 16,
  workers = 2, threads = 1}
print(r.ok, r.data_kind, r.skipped_files, r.classes, r.dataset_size, #r.samples)
r = rlx.train{model = tiny, data = root, batch = 4, iters = 2, warmup = 1, input = 16, augment = false}
print(r.ok, r.skipped_files)
