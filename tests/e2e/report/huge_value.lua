-- A study whose one repeat stored 1e308 images/s (issue 25 finding 11: a single such value meant
-- no report at all, because one figure's axis overflowed). Usage: rlx run huge_value.lua --set dir=D
local dir = assert(rlx.params.dir, "--set dir=")
os.remove(dir .. "/huge.db")
local s = rlx.study{name = "huge", db = dir .. "/huge.db", label = "envA"}
s:sweep{models = {"resnet18"}, precision = {"fp32"}, batch = {4, 8}, repeats = 2, iters = 5, warmup = 1, input = 32,
  classes = 10, quiet = true, trainer = function(o)
    local v = (o.batch == 4 and o.label:match("_run1$")) and 1e308 or 100
    return {ok = true, images_per_s = v, iter_s = {mean = o.batch / v, sd = 0}, seconds = 1, device = "cpu",
      precision = o.precision, batch = o.batch}
  end}
s:close()
