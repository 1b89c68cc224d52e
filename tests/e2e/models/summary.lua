-- summary.lua: rlx.model.summary on the hand-worked tiny model (numbers derived in
-- tests/unit/models/test_tiny.cpp) and on built-ins, printed one fact per line.
local tiny = dofile(os.getenv("RLX_SOURCE_DIR") .. "/tests/e2e/models/tiny.lua")
local s = rlx.model.summary{model = tiny, batch = 2, input = 8, classes = 10}
print("tiny", s.params, s.buffers, s.forward_macs, s.forward_flops, s.elementwise_flops,
  s.backward_flops, s.train_flops, s.memory_bytes, #s.layers)
local names = {}
for _, l in ipairs(s.layers) do names[#names + 1] = l.name .. ":" .. l.kind .. ":" ..
  rlx.model.shape_string(l.output) .. ":" .. l.params .. ":" .. l.macs end
print(table.concat(names, " "))
local amp = rlx.model.summary{model = tiny, batch = 2, input = 8, classes = 10, precision = "amp"}
print("amp", amp.memory_bytes, amp.memory_fp32_bytes, amp.weight_copy_bytes)
local r = rlx.model.summary("resnet50")
print("resnet50", r.params, r.forward_macs, r.batch, r.precision)
local r8 = rlx.model.summary{model = "resnet50", batch = 8, layers = false}
print("ratio", string.format("%.3f", r8.train_flops / (8 * r8.forward_flops)), r8.layers == nil)
local c = rlx.model.summary{model = "resnet18", input = 32, classes = 10}
print("cifar", c.params, c.forward_macs)
