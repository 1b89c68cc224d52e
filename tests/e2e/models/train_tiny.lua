-- train_tiny.lua: the hand-worked Lua model trains through rlx.train (synthetic data, two
-- iterations) and summarises with the parameter count worked by hand.
local tiny = dofile(os.getenv("RLX_SOURCE_DIR") .. "/tests/e2e/models/tiny.lua")
local r = rlx.train{model = tiny, batch = 2, iters = 2, warmup = 1, input = 8, classes = 10,
  data = "synthetic"}
print(r.ok, r.model, rlx.model.summary{model = tiny, input = 8, classes = 10}.params)
