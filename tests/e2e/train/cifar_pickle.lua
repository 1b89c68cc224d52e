-- cifar_pickle.lua: a cifar-10-batches-py folder made here (Python 2 protocol-2 pickles, the
-- layout of cifar-10-python.tar.gz, written opcode by opcode) trains at 32x32 with the dataset's
-- 10 classes; a batch that names os.system is refused with the file's name, nothing run.
local root = os.getenv("RLX_TEST_TMP") .. "/e2e_train_cifar_pickle"
local dir = root .. "/cifar-10-batches-py"
os.execute("rm -rf '" .. root .. "' && mkdir -p '" .. dir .. "'")

local function le(v, n)
  local t = {}
  for i = 1, n do t[i] = string.char(math.floor(v / 256 ^ (i - 1)) % 256) end
  return table.concat(t)
end
local function int(v) return v < 256 and ("K" .. le(v, 1)) or ("M" .. le(v, 2)) end
local function str(s) return (#s < 256 and ("U" .. le(#s, 1)) or ("T" .. le(#s, 4))) .. s end

-- {'data': uint8 array n x 3072, 'labels': [...], 'batch_label': ...}, as cPickle.dump(d, f, 2).
local function batch(labels, name)
  local pixels = {}
  for i, label in ipairs(labels) do
    pixels[i] = string.rep(string.char(label * 20), 1024) .. string.rep(string.char(100), 1024) ..
      string.rep(string.char(255 - label * 20), 1024)
  end
  local ints = {}
  for i, l in ipairs(labels) do ints[i] = int(l) end
  return table.concat({"\128\2}(", str("data"), "cnumpy.core.multiarray\n_reconstruct\n", "cnumpy\nndarray\n",
    int(0), "\133", str("b"), "\135R(", int(1), int(#labels), int(3072), "\134",
    "cnumpy\ndtype\n", str("u1"), int(0), int(1), "\135R(", int(3), str("|"), "NNNJ\255\255\255\255J\255\255\255\255",
    int(0), "tb\137", str(table.concat(pixels)), "tb", str("labels"), "](", table.concat(ints), "e",
    str("batch_label"), str(name), "u."})
end

local function write(path, bytes)
  local f = assert(io.open(path, "wb"))
  f:write(bytes)
  f:close()
end
local labels1, labels2 = {}, {}
for i = 0, 11 do labels1[#labels1 + 1] = i % 10 end
for i = 0, 7 do labels2[#labels2 + 1] = (i * 3) % 10 end
write(dir .. "/data_batch_1", batch(labels1, "training batch 1 of 5"))
write(dir .. "/data_batch_2", batch(labels2, "training batch 2 of 5"))
write(dir .. "/test_batch", batch({1}, "testing batch 1 of 1"))

local tiny = dofile("tests/e2e/train/tiny_model.lua")
local r = rlx.train{model = tiny, data = root, batch = 5, iters = 2, warmup = 1, threads = 1}
print(r.ok, r.data_kind, r.input, r.classes, r.dataset_size, r.loss_first == r.loss_first)

write(dir .. "/data_batch_3", "\128\2cos\nsystem\nU\2ls\133R.")
r = rlx.train{model = tiny, data = root, batch = 5, iters = 1, warmup = 0}
print(r.ok, r.error)
