-- rlx.study: a performance study kept in one SQLite database (docs/storage.md).
--
--   local study = rlx.study{name = "cpu"}              -- results/cpu.db
--   study:sweep{models = {"resnet18", "mobilenet_v2"}, batch = {16, 32}, repeats = 3, iters = 20}
--   for _, r in ipairs(study:runs{model = "resnet18"}) do print(r.label, r.images_per_s) end
--
-- A sweep runs the Cartesian product models x precision x batch x repeats in that stable order
-- through rlx.train and writes each run (row, samples, counters, complexity, roofline points) in
-- ONE transaction, so a crash or Ctrl-C never leaves half a run. Rerunning skips the runs already
-- stored as ok for the same configuration in the same environment (force = true redoes them), so
-- a killed study continues where it stopped. A failed run (out of memory, say) is stored with its
-- error and the sweep goes on; failed runs are tried again on the next rerun.
local options = require("rlx.options")
local errors = require("rlx.errors")
local plan = require("rlx.plan")
local duration_text = require("rlx.plan.text").duration_text
local layout = require("rlx.plan.layout")
local fit = require("rlx.plan.fit")

local common = require("rlx.study._common")
local train_options = require("rlx._train_options")
local slot_methods = require("rlx.study._slot")
local show = require("rlx.show")
local frame = require("rlx.frame")
local studydb_data = require("rlx.studydb.data")
local table2 = require("rlx.report.table2")
local figures = require("rlx.figures")
local report = require("rlx.report")
local hypotheses = require("rlx.report.hypotheses")
local warn, now_s, plain_data = common.warn, common.now_s, common.plain_data
local targeted = plan.targeted

local M = {}
local Study = {}
Study.__index = Study

-- The run context a Slurm job gives the studies its script opens (issue 53: explicit, instead of
-- replacing rlx.study.open and the methods at run time). nil when the script runs as written.
-- Set with M._with_context(ctx, fn) by rlx.slurm._shard (a task) and rlx.slurm._submit (its
-- planning child); every field is optional:
--   ctx.open(o) -> o       the options rlx.study{} opens with (a task's own database and label)
--   ctx.opened(study)      told of each study opened (the planning child records it)
--   ctx.only(study)        the slot labels this process runs (study:sweep and study:estimate)
--   ctx.planned(study, items)  told of each sweep's plan before it runs or prints it
--   ctx.later              a study's figures and report are another job's: this text says whose
local context = nil

--- Runs fn(...) with the run context ctx (see above), restored afterwards even when fn raises.
function M._with_context(ctx, fn, ...)
  local before = context
  context = ctx
  local res = {n = 0}
  local function keep(...) res = {n = select("#", ...), ...} end
  keep(pcall(fn, ...))
  context = before
  if not res[1] then error(res[2], 0) end
  return unpack(res, 2, res.n)
end

--- rlx.study{name=, db=, label=, zone=, instance_type=, price_per_hour=}: opens (creating) the
--- study's database and records the current environment and the study. price_per_hour (what the
--- machine costs per hour) is stored with each run this object stores (result.price_per_hour), not
--- in the environment's id, so adding it later resumes the same study.
function M.open(opts)
  local o = options.check("rlx.study", opts, {
    name = {type = "string", required = true},
    db = {type = "string"},
    label = {type = "string"},
    zone = {type = "string"},
    instance_type = {type = "string"},
    -- Bounded so the report's sums and costs stay finite numbers (1e308 printed as "inf").
    price_per_hour = {type = "number", min = 0, max = 1e9},
    busy_timeout_ms = {type = "integer", min = 0},
  })
  if o.name == "" or o.name:find("[/\\]") then
    errors.raise("rlx.study", string.format("option 'name' must be a non-empty name without '/', got %q", o.name))
  end
  -- Names are printed, stored and drawn: a control character in one would reach the terminal and
  -- the report as raw bytes (issue 35 item 4); an environment label names figure files.
  for _, k in ipairs({"name", "db", "label", "zone", "instance_type"}) do
    if o[k] and rlx._core.term.has_control(o[k]) then
      errors.raise("rlx.study", string.format("option '%s' holds a control character (a line break, a tab, ESC; " ..
        "shown as \\ddd): '%s'; give it without", k, show.printable(o[k])))
    end
  end
  if o.label and (o.label == "" or o.label:find("[/\\]")) then
    errors.raise("rlx.study", string.format("option 'label' must be a non-empty name without '/' (it names figure " ..
      "files and run labels), got '%s'", o.label))
  end
  if context and context.open then o = context.open(o) end
  local path = o.db or ("results/" .. o.name .. ".db")
  local self = setmetatable({name = o.name, path = path, price_per_hour = o.price_per_hour}, Study)
  -- results/ (or the db's directory) is made on first use. A dry run writes nothing: it plans on
  -- an in-memory copy of the database, or a new one in memory when there is none (issue 25
  -- finding 10: `--set db=/nonexistent/x.db --dry-run` created /nonexistent/; issue 35 item 3: it
  -- created the database).
  if rlx.flags and rlx.flags.dry_run then
    self.db = rlx.db.open(path, {snapshot = true, busy_timeout_ms = o.busy_timeout_ms})
  else
    self.db = rlx.db.open(path, {create_directories = true, busy_timeout_ms = o.busy_timeout_ms})
  end
  self.env = rlx.env.capture{label = o.label, zone = o.zone, instance_type = o.instance_type}
  -- A database made before labels came from the hardware keeps its label ("docker", a host
  -- name): the same machine and software under a stored label is that stored environment.
  if not o.label and not rlx.env._label_given() then
    for _, row in ipairs(self.db:environments_except{label = self.env.label}) do
      local candidate = {}
      for k, v in pairs(self.env) do candidate[k] = v end
      candidate.label = row.label
      if rlx.env.id(candidate) == row.id then
        self.env.label, self.env.id = row.label, row.id
        break
      end
    end
  end
  self.env_id = self.env.id
  if self.env.gpu_unusable then
    io.stderr:write("rlx.study: WARNING: the GPU here is not used: " .. self.env.gpu_unusable .. "\n")
  end
  self.db:put_environment(plain_data(self.env, 0))
  self.db:put_study(o.name)
  if context and context.opened then context.opened(self) end
  return self
end

setmetatable(M, {__call = function(_, opts) return M.open(opts) end})

local function make_label(env, model, precision, batch, n)
  return string.format("%s_%s_%s_bs%s_run%d", tostring(env), tostring(model), tostring(precision), tostring(batch), n)
end

--- The run label {env}_{model}_{precision}_bs{batch}_run{N}.
function M.label(env, model, precision, batch, n)
  local args = {env, model, precision, batch}
  for i, what in ipairs({"environment label", "model", "precision"}) do
    if type(args[i]) ~= "string" then
      errors.raise("rlx.study.label", string.format("the %s (argument %d) must be a string, got %s", what, i,
        type(args[i])))
    end
  end
  if type(batch) ~= "number" and type(batch) ~= "string" then
    errors.raise("rlx.study.label", "the batch size (argument 4) must be a number, got " .. type(batch))
  end
  if type(n) ~= "number" or n ~= math.floor(n) or n < 1 then
    errors.raise("rlx.study.label", "the run number (argument 5) must be an integer >= 1, got " ..
      (type(n) == "number" and tostring(n) or type(n)))
  end
  return make_label(env, model, precision, batch, n)
end

-- The options of rlx.train a sweep takes, from their declarations (engine/train/options.cpp):
-- those it hands every run unchanged ("pass"), and its dimensions, run once per value ("dimension":
-- cuda_graphs, ranks); model, precision and batch are its own loops (models, precision, batch).
local PASS = train_options.sweep_role("pass")
local DIMENSIONS = {}
for _, name in ipairs(train_options.sweep_role("dimension")) do DIMENSIONS[#DIMENSIONS + 1] = train_options.OPTIONS[name] end

-- What the sweep checks of a value it hands every run before anything is claimed: the option's
-- type and least value (rlx._core.train.check then reads them as rlx.train would: check_options).
local function pass_spec(d)
  if d.type == "integer" or d.type == "number" then return {type = d.type, min = d.min} end
  if d.type == "string" and not d.one_of then return {type = "string"} end
  return {type = "any"}
end

local SWEEP_SPEC = {
  models = {type = "string_list", required = true},
  batch = {type = "int_list", min = 1, default = {32}},
  precision = {type = "string_list", default = {"fp32"}},
  repeats = {type = "integer", min = 1, max = plan.MAX_REPEATS, default = 1},
  accept_ci = {type = "number", min = 0},
  calibration = {type = "table"},
  budget_s = {type = "number", min = 0},
  noise_floor = {type = "boolean", default = true},
  notes = {type = "string_list"},
  force = {type = "boolean", default = false},
  label = {type = "string"},
  trainer = {type = "function"},
  quiet = {type = "boolean", default = false},
  only = {type = "string_list"},
  retry_crashed = {type = "boolean", default = false},
  max_attempts = {type = "integer", min = 1, default = 2},
  stale_after_s = {type = "integer", min = 0, default = 0},
  memory_check = {type = "boolean", default = true},
  memory_available = {type = "function"},
  order = {type = "string", one_of = {"interleaved", "random", "grouped"}, default = "interleaved"},
  order_seed = {type = "integer", min = 0},
  -- {precision = {batch, ...}}: a precision named here runs at those batches only (issue 55: the
  -- default plan keeps bf16 at one batch per model on a CPU with native bf16, an fp32/bf16 pair).
  precision_batch = {type = "table"},
  -- The repeats every configuration gets before any gets more, when the budget holds them all
  -- (rlx.plan.fit.select: repeats first).
  min_repeats = {type = "integer", min = 1, default = 2},
  -- The study's start on rlx's monotonic clock and what it does after this sweep (seconds): each
  -- run's line says how long the study has run and about how long it has left.
  started = {type = "number"},
  after_s = {type = "number", min = 0},
}
for _, k in ipairs(PASS) do SWEEP_SPEC[k] = pass_spec(train_options.OPTIONS[k]) end
SWEEP_SPEC.device = {type = "string", default = "cpu"}  -- a sweep trains on the CPU unless told
-- A dimension is a value or a list of them, like precision (ranks: batch stays per rank).
for _, d in ipairs(DIMENSIONS) do SWEEP_SPEC[d.name] = {type = "any"} end

-- The configuration of one run: what rlx.train gets, minus the label. Its hash is the resume key.
-- A model's memory layout: the sweep's memory_format when given (the user's choice wins), else the
-- layout this machine's calibration chose for the model (rlx.calibrate), else rlx.train's default.
-- A calibration that chose channels_last, rlx.train's own default for a CNN, leaves it unset: the
-- same step either way, so the same resume key, and a study stored before calibrations existed
-- resumes instead of training its runs again. The second value is the key such a run had between
-- calibrations and this rule (memory_format = "channels_last" in its configuration), also looked
-- up so that those studies resume too; nil where it does not apply.
local function run_config(o, model, precision, batch)
  local c = {model = model, precision = precision, batch = batch, accept_ci = o.accept_ci}
  for _, k in ipairs(PASS) do c[k] = o[k] end
  if c.memory_format == nil and o.calibration then
    local chosen = layout.calibrated(o.calibration, model, precision, o.input)
    if chosen ~= "channels_last" then c.memory_format = chosen end
    if chosen == "channels_last" then
      local legacy = {}
      for k, v in pairs(c) do legacy[k] = v end
      legacy.memory_format = chosen
      return c, rlx.db.hash(legacy)
    end
  end
  return c
end

local function as_list(v) if type(v) == "table" then return v end return {v} end

-- The layout rule's choice for a sweep's runs of (model, precision) (rlx.plan.layout): the sweep's
-- memory_format, else the calibration's layout, else rlx.train's default.
local function layout_of(o, model, precision)
  if o.memory_format ~= nil then return {rule = "given", memory_format = o.memory_format} end
  local cal = o.calibration and o.calibration[rlx.calibrate.key(model, precision, o.input)]
  if type(cal) == "table" and cal.memory_format then
    return {rule = "calibrated", memory_format = cal.memory_format, calibration = cal}
  end
  return {rule = "default", why = string.format("%s %s is not calibrated on this machine (rlx train --model %s, or " ..
    "a study, calibrates it)", tostring(model), tostring(precision), tostring(model))}
end

-- This machine's stored calibrations of a sweep's models and precisions (the study's database,
-- else the user's cache: rlx.plan.layout.choose), keyed by rlx.calibrate.key; nil when none.
function Study:_stored_layouts(o)
  if type(o.models) ~= "table" and type(o.models) ~= "string" then return nil end
  local out, any = {}, false
  for _, model in ipairs(as_list(o.models)) do
    for _, precision in ipairs(as_list(o.precision)) do
      local choice = layout.choose({model = model, precision = precision, input = o.input, device = o.device,
        threads = o.threads, data = o.data}, {study = self})
      if choice.rule == "calibrated" then
        out[rlx.calibrate.key(model, precision, o.input)], any = choice.calibration, true
      end
    end
  end
  return any and out or nil
end

--- The matrix a sweep would run, in order: {config=, key=, run=, label=, done=bool}.
function Study:plan(opts)
  local o = options.check("study:plan", opts, SWEEP_SPEC)
  return self:_plan(o)
end


-- A permutation of 1..n from a 31-bit seed (Park-Miller generator and Fisher-Yates), the same on
-- every machine and rerun, so a stored seed reproduces a random order.
local function permutation(n, seed)
  local x = seed % 2147483646 + 1
  local p = {}
  for i = 1, n do p[i] = i end
  for i = n, 2, -1 do
    x = x * 48271 % 2147483647
    local j = x % i + 1
    p[i], p[j] = p[j], p[i]
  end
  return p
end

-- The seed of a random order: the option, else the one stored with this study's earlier random
-- sweep in this environment (a rerun resumes the same order), else a new one.
function Study:_order_seed(o)
  if o.order_seed then return o.order_seed end
  local stored = self.db:last_sweep_seed(self.name, self.env_id)
  if stored then return stored end
  return tonumber(rlx.db.new_id():sub(1, 7), 16)
end

-- What the sweep hands every run is read as rlx.train reads it (the engine's reader, without a
-- model: rlx._core.train.check), so a bad value or a contradiction in the protocol (iters with
-- target_ci, min_iters above max_iters) is refused before anything is claimed, in rlx.train's
-- words (issue 35 item 5): every run would have failed with that error and been stored as failed.
local function check_options(o)
  local given = {}
  for _, k in ipairs(PASS) do given[k] = o[k] end
  local ok, err = pcall(rlx._core.train.check, given)
  if not ok then errors.raise("study:sweep", errors.message(errors.pass_exits(err))) end
end

local function value_fits(d, v)
  if d.type == "boolean" then return type(v) == "boolean" end
  if d.type ~= "integer" and d.type ~= "number" then return type(v) == "string" end
  return type(v) == "number" and (d.type ~= "integer" or v == math.floor(v)) and (not d.min or v >= d.min) and
    (not d.max or v <= d.max)
end

-- A dimension's values: the option's value or a list of them, each of its declared type and
-- bounds; not given: its default alone.
local function dimension_values(o, d)
  if o[d.name] == nil then return {d.default} end
  local values = as_list(o[d.name])
  for _, v in ipairs(values) do
    if not value_fits(d, v) then
      errors.raise("study:sweep", string.format("option '%s' must be %s, or a list of them, got %s", d.name,
        options._requirement({type = d.type, min = d.min, max = d.max}), type(v) == "string" and
        string.format("%q", v) or tostring(v)))
    end
  end
  return values
end

-- Every combination of the dimensions' values, the first dimension outermost: {{d, value}, ...}.
local function combinations(o)
  local out = {{}}
  for _, d in ipairs(DIMENSIONS) do
    local grown = {}
    for _, combo in ipairs(out) do
      for _, v in ipairs(dimension_values(o, d)) do
        local c = {unpack(combo)}
        c[#c + 1] = {d, v}
        grown[#grown + 1] = c
      end
    end
    out = grown
  end
  return out
end

function Study:_plan(o)
  check_options(o)
  if o.order_seed and o.order ~= "random" then
    errors.raise("study:sweep", string.format("option 'order_seed' applies to order = \"random\" only (order is %q)",
      o.order))
  end
  local env_label = o.label or self.env.label
  local combos = combinations(o)
  -- Without a memory_format or a calibration from the study's plan, this machine's stored
  -- calibrations (rlx.plan.layout: the one rule of every entry point; a sweep probes nothing).
  if o.memory_format == nil and o.calibration == nil then o.calibration = self:_stored_layouts(o) end
  local only_at = {}
  for p, bs in pairs(o.precision_batch or {}) do
    if type(p) ~= "string" or type(bs) ~= "table" then
      errors.raise("study:sweep", "option 'precision_batch' must map a precision to a list of batch sizes")
    end
    only_at[p] = {}
    for _, b in ipairs(bs) do only_at[p][b] = true end
  end
  local configs = {}
  for _, model in ipairs(as_list(o.models)) do
    for _, precision in ipairs(as_list(o.precision)) do
      for _, batch in ipairs(as_list(o.batch)) do
        for _, combo in ipairs((not only_at[precision] or only_at[precision][batch]) and combos or {}) do
          local config, legacy_key = run_config(o, model, precision, batch)
          -- A run at a dimension's default leaves it out of its configuration (an eager one-process
          -- run has neither cuda_graphs nor ranks), so it keeps the resume key it had before the
          -- dimension existed; at another value the dimension's label tag ("graphs", "2ranks")
          -- joins its label, after the precision and a memory_format given to the sweep.
          local tag = o.memory_format and (precision .. "_" .. tostring(o.memory_format)) or precision
          for _, dv in ipairs(combo) do
            local d, v = dv[1], dv[2]
            if v ~= d.default then
              config[d.name], legacy_key = v, nil
              tag = tag .. "_" .. d.label_tag:gsub("{}", tostring(v))
            end
          end
          configs[#configs + 1] = {config = config, key = rlx.db.hash(config), legacy_key = legacy_key,
            layout = layout_of(o, model, precision),
            label = function(n) return make_label(env_label, model, tag, batch, n) end}
        end
      end
    end
  end
  -- grouped: each configuration's repeats back to back; interleaved: every configuration's
  -- repeat 1, then every repeat 2, ... (machine drift then spreads over the configurations).
  local slots = {}
  if o.order == "grouped" or o.order == "random" then
    for _, c in ipairs(configs) do for n = 1, o.repeats do slots[#slots + 1] = {c, n} end end
  else
    for n = 1, o.repeats do for _, c in ipairs(configs) do slots[#slots + 1] = {c, n} end end
  end
  local seed
  if o.order == "random" then
    seed = self:_order_seed(o)
    local perm, shuffled = permutation(#slots, seed), {}
    for i, k in ipairs(perm) do shuffled[i] = slots[k] end
    slots = shuffled
  end
  local items = {}
  for i, slot in ipairs(slots) do
    local c, n = slot[1], slot[2]
    local key = c.key
    local row = self.db:slot(self.name, self.env_id, key, n)
    if not row and c.legacy_key then
      row = self.db:slot(self.name, self.env_id, c.legacy_key, n)
      if row then key = c.legacy_key end
    end
    items[i] = {config = c.config, key = key, run = n, status = row and row.status, position = i, layout = c.layout,
      order = o.order, seed = seed, done = row ~= nil and row.status == "ok" and not o.force,
      label = row and row.label or self:_unique_label(c.label(n), c.key, c.config)}
  end
  if o.only then self:_mark_shard(items, o.only) end
  return items
end

-- A label is unique per configuration (issue 25 finding 3): when a stored run of this study already
-- has `label` for another configuration (the same matrix at another input size, say), the new one
-- adds what differs: "_in48" for the input size, else "_" and the first 6 hex digits of its key.
-- A slot already stored keeps its label (_plan reads it first), so resuming never renames.
function Study:_unique_label(label, key, config)
  local taken = self.db:runs{study = self.name, label = label}
  local clash = false
  for _, r in ipairs(taken) do clash = clash or r.config_key ~= key end
  if not clash then return label end
  local other = type(taken[1].config) == "table" and taken[1].config or {}
  if config.input ~= nil and config.input ~= other.input then return label .. "_in" .. tostring(config.input) end
  return label .. "_" .. key:sub(1, 6)
end

-- study:sweep{only = {labels}}: the slots not named are "not in this shard" (another process or
-- Slurm array task runs them). A label that is not in the plan is a mistake, not an empty shard.
function Study:_mark_shard(items, only)
  local wanted, known = {}, {}
  for _, l in ipairs(only) do wanted[l] = true end
  for _, it in ipairs(items) do
    known[it.label] = true
    it.not_in_shard = not wanted[it.label]
  end
  for _, l in ipairs(only) do
    if not known[l] then
      errors.raise("study:sweep", string.format("option 'only' names '%s', which is not in the plan (list the " ..
        "plan's labels with study:plan{...})", l))
    end
  end
end

local kind_of = require("rlx.studydb.data").kind_of

--- What the sweep study:sweep(opts) would run would cost (same options; nothing is trained):
--- {items (the plan, each to-run item with estimate_s and estimate_source, iters_cap, need_s),
--- to_run, total_s, unestimated, iters_min and iters_max (precision-targeted with budget_s: the
--- range of the runs' caps on timed iterations, more for faster runs; rlx.plan.fit.caps), fits,
--- need_s (the kept runs' minimum), left_out (items the budget leaves out whole, in order, each
--- with need_s), left_out_s (their minimum)}.
function Study:estimate(opts)
  local o = options.check("study:estimate", opts, SWEEP_SPEC)
  if context and context.only then o.only = context.only(self) end
  return self:_estimate(self:_plan(o), o)
end

-- The plan's estimate of the items (rlx.plan: the planner's sweep).
function Study:_estimate(items, o)
  return plan.of(self):sweep(items, o, function(it) return self:_will_run(it, o) end)
end

-- Whether a plan item would be trained now (not done, not another shard's, not skipped).
function Study:_will_run(it, o)
  if it.not_in_shard or it.done then return false end
  local peek = self:_peek_slot(it, o)
  return not (peek and peek.skip)
end

function Study:_dry_run(items, o)
  local e = self:_estimate(items, o)
  local printable = show.printable
  print(printable(string.format("study %s (%s), environment %s: %d runs in the matrix", self.name, self.path,
    self.env.label, #items)))
  for i, it in ipairs(items) do
    local what
    local peek = self:_peek_slot(it, o)
    if it.not_in_shard then what = "not in this shard"
    elseif it.done then what = "skip (done)"
    elseif peek and peek.skip then what = peek.text
    elseif it.left_out then
      what = "left out (budget)" .. (it.need_s and string.format(": needs ~%s", duration_text(it.need_s)) or "")
    else
      what = peek and peek.text or
        (it.status == "failed" and "rerun (failed before)" or (it.status == "ok" and "redo (force)" or "run"))
      if it.estimate_s then what = what .. string.format(", ~%s (%s%s)", duration_text(it.estimate_s),
        it.estimate_source, it.iters_cap and string.format(", up to %d timed", it.iters_cap) or "") end
    end
    print(printable(string.format("%4d  %-48s %s", i, it.label, what)))
  end
  local est = e.to_run == 0 and "nothing to run" or
    (e.unestimated == e.to_run and "no estimate (no model description or peaks for these runs)" or
      string.format("estimated %s%s", duration_text(e.total_s), e.unestimated > 0 and
        string.format(" (+%d runs without an estimate)", e.unestimated) or ""))
  if e.iters_max then
    local same = e.iters_min == e.iters_max
    est = est .. string.format(", at up to %s timed iterations per run%s to fit %s", same and tostring(e.iters_max) or
      string.format("%d-%d", e.iters_min, e.iters_max), same and "" or " (more for faster runs)",
      duration_text(o.budget_s))
  end
  print(string.format("dry run: %d to run, %d skipped%s; %s", e.to_run, #items - e.to_run - #e.left_out,
    #e.left_out > 0 and string.format(", %d left out for the budget", #e.left_out) or "", est))
  return {planned = #items, to_run = e.to_run, skipped = #items - e.to_run - #e.left_out, left_out = #e.left_out,
    estimate_s = e.unestimated < e.to_run and e.total_s or nil, unestimated = e.unestimated, dry_run = true,
    iters_min = e.iters_min, iters_max = e.iters_max, fits = e.fits, need_s = e.need_s}
end

-- Complexity from rlx.model.summary when the models module provides it (cached per shape).
-- quiet: no warning and nothing cached on failure (the memory check asks before training; only
-- a run that trained warns that its complexity is missing).
function Study:_complexity(config, cache, quiet)
  local key = table.concat({config.model, config.batch, tostring(config.input), tostring(config.classes),
    config.precision}, "|")
  if cache[key] ~= nil then return cache[key] or nil end
  local summary = false
  local model = rlx.model
  if type(model) == "table" and type(model.summary) == "function" then
    local ok, s = pcall(model.summary, {model = config.model, batch = config.batch, input = config.input,
      classes = config.classes, precision = config.precision, layers = false})
    if ok and type(s) == "table" then summary = s
    elseif quiet then return nil
    elseif not ok and not cache["warned:" .. config.model] then
      cache["warned:" .. config.model] = true
      warn("no complexity for " .. config.model .. ": " .. rlx.errors.text(rlx.errors.pass_exits(s)))
    end
  end
  cache[key] = summary
  return summary or nil
end

-- Peaks for the roofline: stored measurements for this environment, else the datasheet entry.
function Study:_roofline_peaks(device)
  local kind = kind_of(device)
  local p = self:peaks(kind)
  if p then return p end
  if kind == "cuda" and self.env.gpu_name and type(rlx.peaks) == "table" and rlx.peaks.datasheet then
    local ok, entry = pcall(rlx.peaks.datasheet, self.env.gpu_name)
    if ok then return entry end
  end
  return nil
end

-- rlx.train is a table with __call (it also holds rlx.train.devices and friends), so "callable"
-- means a function or anything whose metatable has __call.
local function is_callable(v)
  if type(v) == "function" then return true end
  local mt = getmetatable(v)
  return type(mt) == "table" and mt.__call ~= nil
end

-- Why a run was left out, after its label: what it needs against what is left, and when runs the
-- plan ranks first (every configuration once, then the cheapest to its repeats) took some of it.
local function left_out_text(it, o)
  local need, left = duration_text(it.need_s or 0), math.max(0, it.left_s or 0)
  local room = it.room_s and math.max(0, it.room_s)
  if room and room < left - 0.5 then
    return string.format("%s: left out, it needs ~%s and ~%s of the %s left remain after the runs the plan " ..
      "puts first (every configuration once, then the cheapest to their repeats) (budget)", it.label, need,
      duration_text(room), duration_text(left))
  end
  return string.format("%s: left out, it needs ~%s and %s is left beside the %s kept for reruns (budget)", it.label,
    need, duration_text(left), duration_text(o.budget_s * fit.RERUN_RESERVE))
end

--- Runs the matrix (see docs/lua-api/study.md); returns {planned, ran, skipped, failed, ok, labels}.
function Study:sweep(opts)
  local o = options.check("study:sweep", opts, SWEEP_SPEC)
  if context and context.only then o.only = context.only(self) end
  local items = self:_plan(o)
  if context and context.planned then context.planned(self, items) end
  if rlx.flags and rlx.flags.dry_run then return self:_dry_run(items, o) end
  local trainer = o.trainer or rlx.train
  if not is_callable(trainer) then
    errors.raise("study:sweep", "rlx.train is not available in this build; pass trainer = function(opts) ... end")
  end
  local stats = {planned = #items, ran = 0, skipped = 0, failed = 0, ok = 0, not_in_shard = 0, busy = 0,
    crashed = 0, labels = {}, not_retried = {}, left_out = {}}
  local cache = {}
  local deadline = o.budget_s and now_s() + o.budget_s
  -- What each run's line after it says of the study (its start, the time left: rlx.study._slot).
  stats.items, stats.deadline, stats.started_s = items, deadline, o.started or now_s()
  -- Flagged runs waiting to be trained again one slot later (rlx.study._slot: _interleave_reruns),
  -- and every rerun's label in the order it ran.
  local reruns = {}
  stats.rerun_order = {}
  for i, it in ipairs(items) do
    if it.not_in_shard then
      stats.not_in_shard = stats.not_in_shard + 1
    elseif it.done then
      stats.skipped = stats.skipped + 1
    else
      local fits = true
      if deadline and targeted(o) then
        fits, it.caps = plan.of(self):slot(items, i, o, deadline, function(x) return self:_will_run(x, o) end,
          stats.rerun_spent_s)
      end
      if fits then
        self:_sweep_slot(o, it, string.format("[%d/%d]", i, #items), trainer, stats, cache)
      else
        stats.left_out[#stats.left_out + 1] = it
        if not o.quiet then
          io.stderr:write(string.format("[%d/%d] %s\n", i, #items, left_out_text(it, o)))
        end
      end
    end
    if deadline then self:_interleave_reruns(o, items, i, reruns, deadline, trainer, stats, cache) end
  end
  -- The last slot's own rerun, when it fits the time kept for reruns, before anything else.
  if deadline then self:_interleave_reruns(o, items, #items + 1, reruns, deadline, trainer, stats, cache) end
  self:_after_busy(o, items, trainer, stats, cache)
  if deadline then
    self:_rerun_flagged(o, items, deadline, trainer, stats, cache)
    self:_fill_left_out(o, deadline, trainer, stats, cache)
  end
  stats.items, stats.deadline = nil, nil
  if stats.crashed > 0 then
    warn(string.format("%d slot(s) not retried after their process died: %s", stats.crashed,
      table.concat(stats.not_retried, "; ")))
  end
  return stats
end

--- Stores one finished run (config as given to rlx.train, result as returned) in one transaction,
--- replacing any earlier row for the same configuration and repeat. opts: run (repeat number,
--- default 1), label, started_at, total_s, complexity, roofline (array of point rows),
--- sweep_order, sweep_seed, position. Returns the id.
function Study:store_run(config, result, opts)
  errors.expect("study:store_run", config, "table", "a config table")
  errors.expect("study:store_run", result, "table", "a result table")
  local o = options.check("study:store_run", opts, {
    run = {type = "integer", min = 1, default = 1}, label = {type = "string"}, started_at = {type = "string"},
    total_s = {type = "number"}, complexity = {type = "table"}, roofline = {type = "table"},
    sweep_order = {type = "string"}, sweep_seed = {type = "integer"}, position = {type = "integer", min = 1},
    id = {type = "string"}, attempt = {type = "integer", min = 1},
    if_stored = {type = "string", one_of = {"next", "refuse", "replace", "replace_label"}, default = "replace"},
  })
  if type(config.model) ~= "string" then
    errors.raise("study:store_run", "config.model must be a model name (string), got " .. type(config.model))
  end
  if config.precision == nil then
    -- rlx.train's default, named: a run stored without it had no precision, and the report's
    -- figures (grouped by precision) failed on it.
    local c = {}
    for k, v in pairs(config) do c[k] = v end
    c.precision = "fp32"
    config = c
  end
  -- if_stored = "next": the store picks the repeat and appends "_run<N>" to the label it is given.
  local label = o.label or (o.if_stored == "next" and
    make_label(self.env.label, config.model, config.precision, config.batch or "?", 1):gsub("_run1$", "") or
    make_label(self.env.label, config.model, config.precision, config.batch or "?", o.run))
  local stored = plain_data(result, 0)
  if self.price_per_hour and stored.price_per_hour == nil then stored.price_per_hour = self.price_per_hour end
  return self.db:put_run{study = self.name, environment_id = self.env_id, label = label, run = o.run,
    config = plain_data(config, 0), result = stored, complexity = plain_data(o.complexity, 0),
    roofline = plain_data(o.roofline, 0),
    id = o.id, if_stored = o.if_stored,
    columns = {started_at = o.started_at or rlx.db.now(), total_s = o.total_s, sweep_order = o.sweep_order,
      sweep_seed = o.sweep_seed, position = o.position, attempt = o.attempt}}
end

local RUN_FILTERS = {"model", "precision", "batch", "device", "status", "env", "label", "run", "samples"}

--- Stored runs with their summaries, filtered by any of model, precision, batch, device, status,
--- env (environment label), label, run (repeat); samples=true adds each run's per-iteration seconds.
function Study:runs(opts)
  local o = options.check("study:runs", opts, {
    model = {type = "string"}, precision = {type = "string"}, batch = {type = "integer"}, device = {type = "string"},
    status = {type = "string", one_of = {"ok", "failed", "running", "crashed"}}, env = {type = "string"},
    label = {type = "string"}, run = {type = "integer"}, samples = {type = "boolean", default = false},
    all_studies = {type = "boolean", default = false},
  })
  -- A frame (rlx.frame): prints as a table in the REPL and has where/group_by/plot/...
  return frame.new(M._query_runs(self.db, o, not o.all_studies and self.name or nil))
end

--- Runs of a database (any study unless `study` is given), as study:runs returns them; o may
--- carry other keys (a CLI's options): only the filters are read.
function M._query_runs(db, o, study)
  local filter = {study = study}
  for _, k in ipairs(RUN_FILTERS) do filter[k] = o[k] end
  return db:runs(filter)
end

--- Table 2's rows (rlx.report.table2.records, the report's and `rlx runs --summary`'s numbers):
--- one per configuration of the study's ok runs, as a frame.
function Study:table2()
  local D = studydb_data.load(self.db, self.name, self.path)
  return frame.new(table2.records(D), table2.COLUMNS)
end

--- Roofline points of this study joined with their runs (model, precision, batch, env, label).
function Study:points(opts)
  local o = options.check("study:points", opts, {level = {type = "string"}, env = {type = "string"},
    model = {type = "string"}, source = {type = "string", one_of = {"measured", "estimated"}}})
  return frame.new(self.db:points{study = self.name, level = o.level, env = o.env, model = o.model,
    source = o.source})
end

--- Stores a peaks table (rlx.peaks.measure's: numeric fields such as dram_gbps, fp32_gflops, and
--- spread, a number or a table name -> relative spread) for this environment; device and source
--- default to the table's own fields, else "cpu" and "measured". Returns the number of rows stored.
function Study:store_peaks(peaks, opts)
  errors.expect("study:store_peaks", peaks, "table", "a peaks table")
  local o = options.check("study:store_peaks", opts, {device = {type = "string"}, source = {type = "string"}})
  o.device = o.device or (type(peaks.device) == "string" and peaks.device) or "cpu"
  o.source = o.source or (type(peaks.source) == "string" and peaks.source) or "measured"
  -- A bandwidth or FLOP rate that is not positive is no peak (issue 25 finding 10: dram_gbps = -5
  -- was stored and printed as measured).
  for k, v in pairs(peaks) do
    if type(k) == "string" and (k:match("_gbps$") or k:match("_gflops$")) and type(v) == "number" and
      not (v > 0 and v < math.huge) then
      errors.raise("study:store_peaks", string.format("%s = %s is not a peak: bandwidths (_gbps) and FLOP rates " ..
        "(_gflops) must be positive, finite numbers", k, tostring(v)))
    end
  end
  local n = self.db:put_peaks(self.env_id, o.device, o.source, plain_data(peaks, 0))
  if n == 0 then
    errors.raise("study:store_peaks", "the table has no numeric fields (expected e.g. dram_gbps, fp32_gflops)")
  end
  return n
end

--- The latest stored peaks of this environment for device ("cpu" or "cuda"): a table name -> value
--- with spread, units, source and measured_at, or nil when none were stored.
function Study:peaks(device)
  errors.expect("study:peaks", device, "string|nil", "a device name (string)")
  return self.db:peaks(self.env_id, device or "cpu")
end

local PEAK_SUMMARY = {"dram_gbps", "l3_gbps", "l2_gbps", "fp32_gflops", "bf16_gflops", "gemm_fp32_gflops",
  "gemm_bf16_gflops"}

--- The peaks of device kind ("cpu" or "cuda") for this environment: the stored ones, else measured
--- now with rlx.peaks.measure (once per environment), stored and printed. opts: quick (shorter
--- measurement), quiet. Returns the peaks table, or nil when measuring failed (a warning says so;
--- rooflines then fall back to datasheet figures). In a dry run nothing is measured.
function Study:ensure_peaks(kind, opts)
  errors.expect("study:ensure_peaks", kind, "string", "a device kind (\"cpu\" or \"cuda\")")
  local o = options.check("study:ensure_peaks", opts, {quick = {type = "boolean", default = false},
    quiet = {type = "boolean", default = false}})
  local have = self:peaks(kind)
  if have or (rlx.flags and rlx.flags.dry_run) then return have end
  if not o.quiet then io.stderr:write(string.format("measuring %s peaks (once per environment)...\n", kind)) end
  local ok, peaks = pcall(rlx.peaks.measure, {device = kind, quick = o.quick})
  if not ok or type(peaks) ~= "table" then
    errors.pass_exits(peaks)
    warn("peaks measurement failed (rooflines will use datasheet figures if any): " .. tostring(peaks))
    return nil
  end
  self:store_peaks(peaks, {device = kind, source = "measured"})
  plan.of(self):forget(kind)  -- estimates use the measured peaks from now on
  if not o.quiet then
    local parts = {}
    for _, k in ipairs(PEAK_SUMMARY) do
      if type(peaks[k]) == "number" then parts[#parts + 1] = string.format("%s %.1f", k, peaks[k]) end
    end
    print("peaks: " .. table.concat(parts, ", "))
    for _, k in ipairs(PEAK_SUMMARY) do
      if type(peaks.warnings) == "table" and peaks.warnings[k] then warn(string.format("peaks: %s: %s", k, peaks.warnings[k])) end
    end
  end
  return self:peaks(kind)
end

--- Counts the study's stored runs by status and prints one line (unless opts.quiet):
--- "database PATH: N runs stored (K ok, ...); seed 000's files: rlx export PATH --layout seed --out DIR".
--- Returns {runs=, ok=, failed=, running=, crashed=, line=}.
function Study:summary(opts)
  local o = options.check("study:summary", opts, {quiet = {type = "boolean", default = false}})
  local out = {runs = 0, ok = 0, failed = 0, running = 0, crashed = 0}
  for _, r in ipairs(self.db:runs{study = self.name}) do
    out.runs = out.runs + 1
    out[r.status] = (out[r.status] or 0) + 1
  end
  local parts = {string.format("%d ok", out.ok)}
  for _, k in ipairs({"failed", "running", "crashed"}) do
    if out[k] > 0 then parts[#parts + 1] = string.format("%d %s", out[k], k) end
  end
  out.line = string.format("database %s: %d runs stored (%s); seed 000's files: rlx export %s --layout seed --out DIR",
    self.path, out.runs, table.concat(parts, ", "), self.path)
  if not o.quiet then print(out.line) end
  return out
end

--- Attaches counters to the run with this label (in this study): counters is {source=, values=,
--- units=, derived=}, an array of {name=, value=, unit=, source=}, or a flat table name -> number.
--- Returns the number of rows stored; fails when no run has that label.
function Study:attach_counters(label, counters, opts)
  errors.expect("study:attach_counters", label, "string", "a run label (string)")
  errors.expect("study:attach_counters", counters, "table", "a counters table")
  local o = options.check("study:attach_counters", opts, {source = {type = "string", default = "ncu"}})
  local id = self.db:run_id_by_label(self.name, label)
  if not id then
    errors.raise("study:attach_counters", string.format("no run labelled '%s' in study '%s' (%s); list the labels " ..
      "with: rlx runs %s", label, self.name, self.path, self.path))
  end
  return self.db:put_counters(id, plain_data(counters, 0), o.source)
end

--- Draws the study's figures (scripts/rlx/figures.lua).
function Study:figures(opts)
  if context and context.later then return {files = {}, warnings = {context.later}} end
  return figures.draw(self, opts)
end

--- Writes the study's report (report.md, report.html, figures; scripts/rlx/report/init.lua).
function Study:report(opts)
  if context and context.later then
    return {markdown = context.later, html = context.later, figures = {}, warnings = {}, missing = {}}
  end
  return report.write(self, opts)
end

--- Declares a hypothesis the report judges (scripts/rlx/report/hypotheses.lua).
function Study:hypothesis(h)
  return hypotheses.declare(self, h)
end

function Study:close()
  if self.db then self.db:close() end
end

-- study.sweep{...} (a '.' for a ':') passes the options where the study belongs, and would fail
-- with a misleading message about the options: every public method checks self first.
local METHOD_USAGE = {plan = "{...}", sweep = "{...}", estimate = "{...}", runs = "{...}", points = "{...}",
  figures = "{...}", report = "{...}", hypothesis = "{...}", store_run = "(config, result [, options])",
  store_peaks = "(peaks [, options])", peaks = "([device])", attach_counters = "(label, counters [, options])",
  close = "()", ensure_peaks = "(kind [, options])", summary = "([options])", table2 = "()"}
for name, usage in pairs(METHOD_USAGE) do
  local method = Study[name]
  Study[name] = function(self, ...)
    if getmetatable(self) ~= Study then
      errors.raise("study:" .. name, string.format("called with '.' instead of ':' (use study:%s%s)", name, usage))
    end
    return method(self, ...)
  end
end

-- The slot methods of a sweep (rlx.study._slot), and the methods of a study, for help(study.runs).
for name, fn in pairs(slot_methods.methods) do Study[name] = fn end
M.crash_advice = slot_methods.crash_advice

M.methods = Study

return M
