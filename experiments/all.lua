-- experiments/all.lua: seed 001's study on whatever this machine has (docs/study.md).
--
--   rlx run experiments/all.lua                      # 224x224, each run timed to ±2 %, in 30 min
--   rlx run experiments/all.lua --set budget=1h      # the same, more repeats and iterations
--   rlx run experiments/all.lua --set scale=smoke    # a few minutes: is the pipeline sound?
--   rlx run experiments/all.lua --dry-run            # the plan and its time estimate
--   rlx run experiments/all.lua --set with=other.db  # one report over this and another machine
--   rlx run experiments/all.lua --help               # every --set parameter
--
-- The matrix (models, repeats, scales) is experiments/matrix.lua. Each device sweeps it with the
-- batch sizes and precisions of its environment script: experiments/<label>.lua, the GPU's
-- (rtx4090.lua), else cpu.lua or cuda.lua. Stored runs are skipped, so the same command resumes.
local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "experiments"
local P = rlx.params.declare(rlx.experiment.PARAMS)

-- Calibrate this machine, then plan every environment's runs within the time budget.
local study = rlx.experiment.open(P, here)
for _, h in ipairs(dofile(here .. "/hypotheses.lua")) do study:hypothesis(h) end  -- judged in the report
for _, env in ipairs(study:environments()) do
  study:sweep(env)  -- its peaks once, then the matrix
end

study:figures()
study:report()
