-- experiments/all.lua: the whole study on whatever this machine has.
--
--   rlx run experiments/all.lua                      # default scale (< 30 min on a 2-core CPU)
--   rlx run experiments/all.lua --set scale=full     # seed 001's protocol: 224x224, 10/100 iters
--   rlx run experiments/all.lua --set scale=smoke    # a few minutes: is the pipeline sound?
--   rlx run experiments/all.lua --dry-run            # the plan, what is done, a time estimate
--
-- For every device rlx.devices() reports it measures and stores the peaks once per environment
-- (skipped when the database already has them), runs that device kind's sweep (experiments/cpu.lua,
-- experiments/cuda.lua: one matrix, experiments/matrix.lua), then draws every figure from the
-- database. Runs already stored are skipped, so after Ctrl-C or a crash the same command resumes.
-- Other --set keys: name= (study, default p1-roofline), db= (default results/<name>.db),
-- figures= (default figures), label= (environment label), devices=cpu,cuda (a subset),
-- warmup=, iters=, input=, repeats= (override the scale), counters=false (no CUPTI on CUDA).
local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "experiments"
local M = dofile(here .. "/matrix.lua")
local P = rlx.params.declare{
  scale = {one_of = {"smoke", "default", "full"}, default = "default", help = "fidelity against time (matrix.lua)"},
  warmup = {type = "integer", min = 0, help = "warm-up iterations (overrides the scale)"},
  iters = {type = "integer", min = 1, help = "measured iterations (overrides the scale)"},
  input = {type = "integer", min = 1, help = "image side in pixels (overrides the scale)"},
  repeats = {type = "integer", min = 1, help = "repeats per configuration (overrides the scale)"},
  counters = {type = "boolean", default = true, help = "hardware counters on CUDA"},
  devices = {help = "device kinds to run, e.g. cpu,cuda (default: all)"},
  name = {default = "p1-roofline", help = "study name"},
  db = {help = "database file (default results/<name>.db)"},
  figures = {default = "figures", help = "figures folder"},
  label = {help = "environment label (default: from the hardware)"},
  env = {help = "environment label, as RLX_ENV (rlx.env.capture)"},
}
local dry = rlx.flags and rlx.flags.dry_run

local scale_name = P.scale
local S = {}
for k, v in pairs(M.scale[scale_name]) do S[k] = v end
for _, k in ipairs({"warmup", "iters", "input", "repeats"}) do
  if P[k] ~= nil then S[k] = P[k] end
end
if P.counters == false then S.counters = false end

local wanted
if P.devices then
  wanted = {}
  for k in tostring(P.devices):gmatch("[^,]+") do wanted[k] = true end
end

local started = os.time()
local study = rlx.study{name = P.name, db = P.db, label = P.label}
print(string.format("study %s in %s, environment '%s'", study.name, study.path, study.env.label or "?"))
print(string.format("scale %s: %dx%d synthetic images, %d warm-up + %d measured iterations, %d repeats",
  scale_name, S.input, S.input, S.warmup, S.iters, S.repeats))

-- Per-environment batch sizes and precisions (seed 001's matrix): experiments/envs/<name>.lua, found
-- by the environment label, else by the GPU's hardware label (rtx4090, h100, ...); without one the
-- device kind's lists in matrix.lua apply.
local function environment_lists(kind, dev)
  local names = {study.env.label}
  if kind == "cuda" and dev.name then names[2] = rlx.env.hardware_label{gpu_name = dev.name} end
  for _, name in ipairs(names) do
    local path = here .. "/envs/" .. name .. ".lua"
    local f = io.open(path, "r")
    if f then
      f:close()
      local lists = dofile(path)
      if lists.kind == kind then
        print(string.format("batch sizes and precisions from experiments/envs/%s.lua", name))
        return {batch = lists.batch, precision = lists.precision}
      end
    end
  end
end

local devices = rlx.devices()
local summary = {}
for _, dev in ipairs(devices) do
  local kind = dev.kind or "cpu"
  local script = here .. "/" .. kind .. ".lua"
  local f = io.open(script, "r")
  if f then f:close() end
  if wanted and not wanted[kind] then
    print(string.format("%s (%s): skipped (--set devices=%s)", dev.id or kind, dev.name or "", P.devices))
  elseif not f then
    print(string.format("%s (%s): no experiments/%s.lua, skipped", dev.id or kind, dev.name or "", kind))
  else
    print(string.format("== %s: %s", dev.id or kind, dev.name or kind))
    study:ensure_peaks(kind, {quick = S.peaks_quick == true})
    local lists = environment_lists(kind, dev)
    local matrix = M
    if lists then
      matrix = setmetatable({[kind] = lists}, {__index = M})
    end
    local stats = dofile(script)(study, dev, matrix, S)
    summary[#summary + 1] = {device = dev.id or kind, stats = stats}
    if type(stats) == "table" and stats.planned and not dry then
      print(string.format("%s: %d planned, %d ran (%d ok, %d failed), %d already done", dev.id or kind,
        stats.planned, stats.ran or 0, stats.ok or 0, stats.failed or 0, stats.skipped or 0))
    end
  end
end

if dry then
  print("dry run: nothing trained, no figures drawn")
  return
end
local fig = study:figures{dir = P.figures or "figures",
  note = scale_name ~= "full" and string.format("scale %s (%dx%d input)", scale_name, S.input, S.input) or nil}
print(string.format("figures in %s/:", P.figures or "figures"))
for _, file in ipairs(fig.files) do print("  " .. file.path) end
for _, w in ipairs(fig.warnings) do print("  (skipped) " .. w) end
study:summary()
local fig_dir = P.figures or "figures"  -- the report goes next to the figures folder (docs/report.md)
print("report: " .. study:report{dir = fig_dir:match("^(.*)/[^/]+$") or ".", figures = fig_dir:match("[^/]+$"), quiet = true}.html)
print(string.format("done in %d s", os.time() - started))
study:close()
