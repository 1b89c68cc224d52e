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
local P = rlx.params.declare{
  scale = {one_of = {"smoke", "default", "full"}, default = "default", help = "fidelity against time (matrix.lua)"},
  budget = {help = "study time budget, e.g. 30m, 1.5h or none (default: the scale's)"},
  target_ci = {type = "number", help = "time each run until the 95 % CI is within ±this fraction (e.g. 0.02)"},
  warmup = {help = "warm-up iterations, or auto: until steady (overrides the scale)"},
  iters = {type = "integer", min = 1, help = "a fixed count of measured iterations (instead of target_ci)"},
  min_iters = {type = "integer", min = 2, help = "with target_ci: timed iterations before judging"},
  max_iters = {type = "integer", min = 1, help = "with target_ci: at most this many timed iterations"},
  input = {type = "integer", min = 1, help = "image side in pixels (overrides the scale)"},
  repeats = {type = "integer", min = 1, help = "repeats per configuration (overrides the scale)"},
  models = {help = "comma list of models (default: matrix.lua's)"},
  batch = {help = "comma list of batch sizes (default: the environment script's)"},
  precision = {help = "comma list, e.g. fp32,bf16 (default: the environment script's; bf16 on CPUs with it)"},
  counters = {type = "boolean", default = true, help = "hardware counters on CUDA"},
  retry_crashed = {type = "boolean", default = false, help = "retry runs whose process died"},
  devices = {help = "device kinds to run, e.g. cpu,cuda (default: all)"},
  name = {default = "p1-roofline", help = "study name"},
  db = {help = "database file (default results/<name>.db)"},
  figures = {default = "figures", help = "figures folder"},
  label = {help = "environment label (default: from the hardware)"},
  env = {help = "environment label, as RLX_ENV (rlx.env.capture)"},
  data = {help = "train on this dataset: an ImageFolder root (e.g. an Imagenette subset) or a CIFAR-10 folder " ..
    "(default: synthetic images)"},
  zone = {help = "cloud region/zone, e.g. us-central1-a (stored with the environment)"},
  instance = {help = "cloud instance type, e.g. g2-standard-8 (stored with the environment)"},
  price_per_hour = {type = "number", min = 0, max = 1e9,
    help = "the machine's price per hour: the report adds cost per 1,000 images"},
}
local S = rlx.experiment.scale(matrix, P)
-- A bad data= stops here (exit 2, one line), before anything is opened or planned.
local ok, data = pcall(function() return P.data and rlx.train.dataset(P.data) end)
if not ok then rlx.fail(2, "experiments/all.lua: --set data=: " .. rlx.errors.text(rlx.errors.pass_exits(data))) end
local study = rlx.experiment.open_study{name = P.name, db = P.db, label = P.label, zone = P.zone,
  instance_type = P.instance, price_per_hour = P.price_per_hour}
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
  retry_crashed = P.retry_crashed, data = P.data, figures = P.figures})
rlx.experiment.finish(study, {figures = P.figures, scale = S})
print(rlx.experiment.done_line(S, done))
study:close()
rlx.experiment.check_complete(done)
