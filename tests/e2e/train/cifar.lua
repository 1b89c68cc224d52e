-- cifar.lua: CIFAR-10 binary batches written here (3073-byte records: label, then the R, G and B
-- planes) train at 32x32 with the dataset's 10 classes; a truncated batch file is ok = false.
local dir = os.getenv("RLX_TEST_TMP") .. "/e2e_train_cifar"
os.execute("rm -rf '" .. dir .. "' && mkdir -p '" .. dir .. "'")
local f = assert(io.open(dir .. "/data_batch_1.bin", "wb"))
for i = 0, 19 do
  local label = i % 10
  f:write(string.char(label), string.rep(string.char(label * 20), 1024),
    string.rep(string.char(100), 1024), string.rep(string.char(255 - label * 20), 1024))
end
f:close()
local tiny = dofile("tests/e2e/train/tiny_model.lua")
local r = rlx.train{model = tiny, data = dir, batch = 5, iters = 2, warmup = 1, threads = 1}
print(r.ok, r.data_kind, r.input, r.classes, r.dataset_size, r.skipped_files)
f = assert(io.open(dir .. "/data_batch_2.bin", "wb"))
f:write("truncated")
f:close()
r = rlx.train{model = tiny, data = dir, batch = 5, iters = 1, warmup = 0}
print(r.ok, r.error)
