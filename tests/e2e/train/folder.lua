-- folder.lua: an ImageFolder of JPEGs written here (a 16x16 gradient made with libturbojpeg,
-- stored as hex) with one corrupt file trains and reports exactly one skipped file.
local root = os.getenv("RLX_TEST_TMP") .. "/e2e_train_folder"
os.execute("rm -rf '" .. root .. "'")
local jpeg = ("ffd8ffe000104a46494600010100000100010000ffdb004300100b0c0e0c0a100e0d0e1211101318281a181616183123251d283a333d3c3933383740485c4e404457453738506d51575f626768673e4d71797064785c656763ffdb0043011112121815182f1a1a2f634238426363636363636363636363636363636363636363636363636363636363636363636363636363636363636363636363636363ffc00011080010001003012200021101031101ffc4001f0000010501010101010100000000000000000102030405060708090a0bffc400b5100002010303020403050504040000017d01020300041105122131410613516107227114328191a1082342b1c11552d1f02433627282090a161718191a25262728292a3435363738393a434445464748494a535455565758595a636465666768696a737475767778797a838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1f2f3f4f5f6f7f8f9faffc4001f0100030101010101010101010000000000000102030405060708090a0bffc400b51100020102040403040705040400010277000102031104052131061241510761711322328108144291a1b1c109233352f0156272d10a162434e125f11718191a262728292a35363738393a434445464748494a535455565758595a636465666768696a737475767778797a82838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae2e3e4e5e6e7e8e9eaf2f3f4f5f6f7f8f9faffda000c03010002110311003f00e7edec7a715a76f63d38ad3b7b1f6ad3b7b1e9c5555c5865f8edb53fffd9"):gsub("..", function(h) return string.char(tonumber(h, 16)) end)
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
