-- experiments/all.lua: the whole study on whatever this machine has.
--
--   rlx run experiments/all.lua                      # 224x224, timed to ±2 %, within 30 min
--   rlx run experiments/all.lua --set budget=1h      # the same, more iterations per run
--   rlx run experiments/all.lua --set scale=full     # seed 001's protocol: 224x224, 10/100 iters
--   rlx run experiments/all.lua --set scale=smoke    # a few minutes: is the pipeline sound?
--   rlx run experiments/all.lua --dry-run            # the plan, what is done, a time estimate
--   rlx run experiments/all.lua --help               # every parameter
--   rlx run experiments/all.lua --set data=data/imagenette2-160 --set zone=us-central1-a \
--       --set instance=g2-standard-8 --set price_per_hour=0.85   # seed 000's subset, on a cloud VM
--
-- For every device it plans the runs against the time budget, measures the peaks once per
-- environment, sweeps the one matrix (experiments/matrix.lua) with its environment script's batch
-- sizes and precisions, then draws the figures and writes the report. Environment scripts:
-- experiments/<label>.lua, picked by the environment label (--set label=), the GPU (rtx4090.lua),
-- else the device kind (cpu.lua, cuda.lua). Stored runs are skipped, so the same command resumes.
local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "experiments"
local matrix = dofile(here .. "/matrix.lua")
local P = rlx.params.declare(rlx.experiment.PARAMS)
local S = rlx.experiment.scale(matrix, P)
-- A bad data= stops here (exit 2, one line), before anything is opened or planned.
local ok, data = pcall(function() return P.data and rlx.train.dataset(P.data) end)
if not ok then rlx.fail(2, "experiments/all.lua: --set data=: " .. rlx.errors.text(rlx.errors.pass_exits(data))) end
local study = rlx.experiment.open_study{name = P.name, db = P.db, label = P.label, zone = P.zone,
  instance_type = P.instance, price_per_hour = P.price_per_hour}
for _, h in ipairs(dofile(here .. "/hypotheses.lua")) do study:hypothesis(h) end
local where = {}
if study.env.cloud_zone then where[#where + 1] = "zone " .. study.env.cloud_zone end
if study.env.instance_type then where[#where + 1] = "instance " .. study.env.instance_type end
print(string.format("study %s in %s, environment '%s'%s", study.name, study.path, study.env.label or "?",
  #where > 0 and (" (" .. table.concat(where, ", ") .. ")") or ""))
if data then print(string.format("data %s: %s, %d images in %d classes", data.root, data.kind, data.images, data.classes)) end
print(string.format("scale %s: %dx%d %s images, %s, %d repeats%s", S.name, S.input, S.input,
  data and data.kind or "synthetic", rlx.experiment.protocol_text(S), S.repeats,
  S.budget_s and (", budget " .. rlx.budget.duration_text(S.budget_s)) or ""))
local done = rlx.experiment.run(study, {dir = here, matrix = matrix, scale = S, devices = P.devices,
  retry_crashed = P.retry_crashed, data = P.data, memory_format = P.memory_format, figures = P.figures})
rlx.experiment.finish(study, {figures = P.figures, scale = S, with = P.with, title = P.title})
print(rlx.experiment.done_line(S, done))
study:close()
rlx.experiment.check_complete(done)
