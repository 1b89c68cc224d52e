-- make_study.lua --set db=PATH: a study "explore" of 12 runs from a fake trainer (no training),
-- whose images_per_s are easy to work out by hand:
--   images_per_s = base(model) * batch + run / 4,  base = 10 (resnet18), 30 (mobilenet_v2)
-- for batch 2 and 4 and runs 1..3, in environment "testbox". So per model and batch the mean is base * batch + 0.5 and the
-- SD 0.25; per model the mean is base * 3 + 0.5: 30.5 (resnet18) and 90.5 (mobilenet_v2).
local base = {resnet18 = 10, mobilenet_v2 = 30}
local s = rlx.study{name = "explore", db = rlx.params.db, label = "testbox"}
s:sweep{models = {"resnet18", "mobilenet_v2"}, batch = {2, 4}, repeats = 3, iters = 1, quiet = true,
  trainer = function(o)
    local run = tonumber(o.label:match("_run(%d+)$"))
    local ips = base[o.model] * o.batch + run / 4
    local t = o.batch / ips
    return {ok = true, images_per_s = ips, seconds = t, samples = {t},
      iter_s = {mean = t, sd = 0, median = t, min = t, max = t, p5 = t, p95 = t}}
  end}
s:close()
