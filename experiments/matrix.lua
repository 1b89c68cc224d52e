-- experiments/matrix.lua: the one definition of the study (seed 001's run matrix), shared by every
-- environment script (cpu.lua, cuda.lua) and by all.lua.
--
-- Scales trade fidelity for time:
--   default: the seed's 224x224 images and matrix, measured to a precision instead of a fixed
--     count: warm-up until steady, then timed iterations until the 95 % CI of the mean iteration
--     time is within ±2 % (at least 4, so the steady verdict has two samples per half; at most
--     50), inside a 30-minute budget, raised (up to 45 minutes) where this machine needs more for
--     every configuration to get 2 runs (min_repeats). The plan comes from this machine
--     (rlx.calibrate) and keeps the runs that fit at ±5 % (accept_ci: a run the report averages
--     is steady and within it), breadth first; what does not fit is left out whole and named with
--     the command that adds it.
--     Runs that end unsteady, share their cores or miss ±5 % are trained again while the budget
--     allows. Full peaks (about a minute): quick ones time 20 ms per repeat, which one scheduler
--     slice can move, and a roof that low puts the study's points above it.
--   full: exactly the seed's protocol (224x224, 10 warm-up + 100 measured iterations, 3 repeats);
--     on a 2-core CPU that is hours (the dry run says how many).
--   smoke: 32x32 images, one measured iteration, two repeats: is the pipeline sound?
-- Choose with `rlx run experiments/all.lua --set scale=smoke|default|full`; --set budget=,
-- target_ci=, iters=, input=, repeats=, models=, batch=, precision= override a scale.
-- SGD at lr 0.01 (torchvision's VGG recipe): at rlx's default of 0.1, VGG-16 (no batch norm)
-- diverges at 224x224 within a few steps, and a run whose loss becomes NaN fails; the step time
-- does not depend on lr.
return {
  models = {"resnet50", "vgg16", "mobilenet_v2"},
  lr = 0.01,
  repeats = 3,
  classes = 1000,
  scale = {
    smoke = {input = 32, warmup = 0, iters = 1, repeats = 2, peaks_quick = true},
    default = {input = 224, warmup = "auto", target_ci = 0.02, accept_ci = 0.05, min_iters = 4, max_iters = 50,
      repeats = 3, budget = "30m", min_repeats = 2, budget_max = "45m", peaks_quick = false},
    full = {input = 224, warmup = 10, iters = 100, repeats = 3, peaks_quick = false},
  },
}
