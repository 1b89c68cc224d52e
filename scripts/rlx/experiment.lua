-- rlx.experiment: the machinery of a study script, so experiments/all.lua reads as the study.
--
--   scale(matrix, params): the scale's settings (matrix.scale[params.scale]) with the --set
--     overrides warmup=, iters=, input=, repeats= and counters=false applied.
--   pick(dir, kind, labels): the environment script for a device: DIR/<label>.lua for the first of
--     `labels` (environment label, GPU hardware label, device kind) that exists and is for `kind`.
--   run(study, opts): for every device rlx.devices() reports (or opts.devices, a stand-in list),
--     measures the peaks once per environment (study:ensure_peaks), picks the environment script,
--     sweeps the shared matrix with its batch sizes and precisions, and prints one summary line.
--   finish(study, opts): figures, summary and report (nothing in a dry run).
--
-- An environment script (experiments/cpu.lua, rtx4090.lua, ...) returns plain data:
--   {kind = "cuda", batch = {64, 128, 256}, precision = {"fp32", "amp"}, counters = true}
-- so adding an environment is copying one file to experiments/<label>.lua (docs/study.md).
local options = require("rlx.options")

local M = {}

local RUN_SPEC = {
  dir = {type = "string", required = true},
  matrix = {type = "table", required = true},
  scale = {type = "table", required = true},
  devices = {type = "string"},
  retry_crashed = {type = "boolean", default = false},
  list = {type = "table"},
  data = {type = "string"},
  figures = {type = "string", default = "figures"},
}
local FINISH_SPEC = {figures = {type = "string", default = "figures"}, scale = {type = "table", required = true}}

local OVERRIDES = {"warmup", "iters", "input", "repeats"}

--- The scale's settings with the --set overrides applied (a new table).
function M.scale(matrix, P)
  local S = {name = P.scale}
  for k, v in pairs(matrix.scale[P.scale]) do S[k] = v end
  for _, k in ipairs(OVERRIDES) do
    if P[k] ~= nil then S[k] = P[k] end
  end
  if P.counters == false then S.counters = false end
  return S
end

local function exists(path)
  local f = io.open(path, "r")
  if f then f:close() end
  return f ~= nil
end

--- The environment script for a device of `kind`: the first DIR/<label>.lua among `labels` (nils
--- skipped) whose table says kind = `kind`. Returns its path, name and table, or nil.
function M.pick(dir, kind, labels)
  for i = 1, #labels + 1 do
    local name = labels[i]
    if i > #labels then name = kind end
    local path = name and (dir .. "/" .. name .. ".lua")
    if path and exists(path) then
      local ok, env = pcall(dofile, path)
      if ok and type(env) == "table" and env.kind == kind and env.batch and env.precision then
        return path, name, env
      end
    end
  end
end

--- The candidate labels for a device: the environment label, the same with '_' for '-' (seed 001's
--- keys mac_mps and gcp_<gpu> are written mac-mps and gcp-l4: '_' separates a run label's fields),
--- its first part (gcp-l4 -> gcp), then the GPU's hardware label.
function M.labels_for(study, dev)
  local label = study.env.label
  local labels = {label}
  if type(label) == "string" and label:find("-", 1, true) then
    labels[#labels + 1] = (label:gsub("%-", "_"))
    labels[#labels + 1] = label:match("^([^-]+)%-")
  end
  if dev.kind == "cuda" and dev.name then
    labels[#labels + 1] = rlx.env.hardware_label{gpu_name = dev.name}
  end
  return labels
end

local function wanted_kinds(devices)
  if not devices then return nil end
  local wanted = {}
  for k in tostring(devices):gmatch("[^,]+") do wanted[k] = true end
  return wanted
end

local function sweep_device(study, dev, o)
  local kind, id = dev.kind or "cpu", dev.id or dev.kind or "cpu"
  local path, name, env = M.pick(o.dir, kind, M.labels_for(study, dev))
  if not path then
    print(string.format("%s (%s): no experiments/%s.lua, skipped", id, dev.name or "", kind))
    return nil
  end
  print(string.format("== %s: %s", id, dev.name or kind))
  study:ensure_peaks(kind, {quick = o.scale.peaks_quick == true})
  print(string.format("batch sizes and precisions from experiments/%s.lua", name))
  local S, mx = o.scale, o.matrix
  local stats = study:sweep{
    device = id, models = mx.models, batch = env.batch, precision = env.precision,
    repeats = S.repeats or mx.repeats, warmup = S.warmup, iters = S.iters, input = S.input,
    classes = mx.classes, counters = env.counters == true and S.counters ~= false or nil,
    retry_crashed = o.retry_crashed, data = o.data,
  }
  if type(stats) == "table" and stats.planned and not o.dry then
    print(string.format("%s: %d planned, %d ran (%d ok, %d failed), %d already done", id, stats.planned,
      stats.ran or 0, stats.ok or 0, stats.failed or 0, stats.skipped or 0))
  end
  return {device = id, script = path, stats = stats}
end

local KINDS = {cpu = true, cuda = true}

--- Before any work (issue 25): the devices= kinds are kinds (a typo ran nothing and exited 0), and
--- the figures folder and the report beside it can be written (made now, unless a dry run). The
--- study's database was opened by rlx.study already.
function M.check_before(study, o)
  local who = (arg and arg[0]) or "rlx.experiment.run"
  for k in tostring(o.devices or ""):gmatch("[^,]+") do
    if not KINDS[k] then
      require("rlx.errors").usage(who, string.format("--set devices=%s: '%s' is not a device kind (cpu, cuda)",
        o.devices, k), "run " .. who)
    end
  end
  local report_dir = o.figures:match("^(.*)/[^/]+$") or "."
  local dry = rlx.flags and rlx.flags.dry_run and true or false
  local ok, err = pcall(function()
    rlx.fs.check_output(o.figures, "folder", {create = not dry, what = "figures"})
    for _, f in ipairs({"report.md", "report.html"}) do
      rlx.fs.check_output(report_dir .. "/" .. f, "file", {create = not dry, create_parent = true, what = "report"})
    end
  end)
  if not ok then rlx.fail(1, who .. ": " .. require("rlx.errors").message(require("rlx.errors").pass_exits(err))) end
  return study
end

--- Sweeps every device. opts: dir (the environment scripts' folder), matrix, scale (M.scale's),
--- devices (a comma list of kinds to keep, or nil), retry_crashed, list (stand-in rlx.devices()),
--- data (a dataset path for every run; nil: synthetic images), figures (the folder finish draws
--- in; checked first with the report beside it).
function M.run(study, opts)
  local o = options.check("rlx.experiment.run", opts, RUN_SPEC)
  M.check_before(study, o)
  o.dry = rlx.flags and rlx.flags.dry_run
  local wanted = wanted_kinds(o.devices)
  local summary = {}
  for _, dev in ipairs(o.list or rlx.devices()) do
    local kind = dev.kind or "cpu"
    if wanted and not wanted[kind] then
      print(string.format("%s (%s): skipped (--set devices=%s)", dev.id or kind, dev.name or "", o.devices))
    else
      summary[#summary + 1] = sweep_device(study, dev, o)
    end
  end
  return summary
end

--- Figures, the summary and the report (the report goes next to the figures folder, docs/report.md).
--- In a dry run it says so and does nothing. opts: figures (folder), scale (M.scale's).
function M.finish(study, opts)
  local o = options.check("rlx.experiment.finish", opts, FINISH_SPEC)
  if rlx.flags and rlx.flags.dry_run then
    print("dry run: nothing trained, no figures drawn")
    return
  end
  local S, dir = o.scale, o.figures
  -- The figures state the input size and protocol themselves (read from the runs); the note names the preset.
  local note = S.name ~= "full" and ("scale " .. S.name) or nil
  local fig = study:figures{dir = dir, note = note}
  print(string.format("figures in %s/:", dir))
  for _, file in ipairs(fig.files) do print("  " .. file.path) end
  for _, w in ipairs(fig.warnings) do print("  (skipped) " .. w) end
  study:summary()
  print("report: " .. study:report{dir = dir:match("^(.*)/[^/]+$") or ".", figures = dir:match("[^/]+$"),
    quiet = true}.html)
end

return M
