-- max_batch.lua: the tiny model's training memory is 11096 + 4712 x batch bytes in fp32 (state
-- 3 x 918 x 4 + 80 buffers; activations 9424 bytes at batch 2, test_tiny.cpp), so 20520 bytes
-- hold batch 2 exactly, one byte less only batch 1, and 11000 bytes not even batch 1.
local tiny = dofile(os.getenv("RLX_SOURCE_DIR") .. "/tests/e2e/models/tiny.lua")
local function mb(bytes) return rlx.model.max_batch{model = tiny, input = 8, classes = 10, memory_bytes = bytes} end
print(mb(20520), mb(20519), mb(15808), mb(15807), mb(11000))
local b = rlx.model.max_batch{model = "resnet50", memory_gib = 16, precision = "amp"}
local s = rlx.model.summary{model = "resnet50", batch = b, precision = "amp", layers = false}
local s1 = rlx.model.summary{model = "resnet50", batch = b + 1, precision = "amp", layers = false}
print(s.memory_bytes <= 16 * 2 ^ 30, s1.memory_bytes > 16 * 2 ^ 30)
