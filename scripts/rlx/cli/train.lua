-- rlx train: one training run from the command line, with the flags of seed 000's run_train.py
-- (--arch, --batch-size, --warmup-iters, ...): a fixed number of iterations, or with --target-ci
-- as many as a precise mean needs (docs/training.md "Precision-targeted iterations"). Prints a one-line summary, or the
-- whole result as JSON with --json; --log-dir DIR appends it to DIR/metrics.csv as run_train.py
-- does. A run that fails (no such device, missing dataset, out of
-- memory) prints the reason and exits 1; a bad flag value exits 2.
local args = require("rlx.cli._args")
local startup_text = require("rlx._startup_text")
local layout = require("rlx.plan.layout")
local train_options = require("rlx._train_options")
local options = require("rlx.options")
local show = require("rlx.show")
local M = {summary = "train a model for N iterations and report images/s (run_train.py's flags)",
  synopsis = "train --model NAME [--batch-size N] [--iters N] [...]"}

-- The flags of rlx.train's options are their declarations' (engine/train/options.cpp, through
-- rlx._train_options: flag, type, bounds, choices, default, help), in their order; what the
-- command does beyond a declaration is here: the model is a name or a Lua file, --data a folder,
-- --memory-format also takes auto (the layout rule), --warmup-iters a count or auto (protocol()).
local FLAG_EXTRA = {
  model = {path = "file"},
  data = {path = "dir"},
  memory_format = {one_of = layout.CHOICES},
}

-- The command's own flags, after the option they go with (nil: at the end).
local OWN_FLAGS = {
  {after = "data", {"synthetic", "--synthetic", type = "boolean", help = "synthetic input even when --data is given"}},
  {after = "memory_format", {"verbose", "--verbose", type = "boolean",
    help = "say every setting that changes a step's speed, as used, and who chose it (stderr)"}},
  {after = "memory_format", {"channels_last", "--channels-last", type = "boolean",
    help = "same as --memory-format channels_last"}},
  {{"log_dir", "--log-dir", metavar = "DIR", path = "output_dir",
    help = "append the run to DIR/metrics.csv (seed 000's columns; DIR is made when missing)"}},
  {{"db", "--db", metavar = "PATH", path = "database",
    help = "store the run in this study database (rlx import-ncu --run LABEL attaches to it)"}},
  {{"study", "--study", metavar = "NAME", name = true, default = "train", help = "the study the run is stored in (with --db)"}},
  {{"replace", "--replace", type = "boolean", help = "with --db: replace the stored run with the same --label (or, " ..
    "without --label, run 1 of this configuration); by default a run with a stored label is refused and an " ..
    "unlabelled run is kept as the next repeat"}},
  {{"json", "--json", type = "boolean", help = "print the whole result as one JSON object"}},
}

-- A boolean option that defaults to true is a flag that turns it off (--no-augment).
local function negated(d) return (d.flag_type or d.type) == "boolean" and d.default == true end

-- The flag of a declared option: its spec entry (rlx._train_options.spec) with its names; a
-- default the parse does not fill in (it depends on other flags) is said in the help.
local function flag_of(d)
  local e = train_options.spec(d.name, FLAG_EXTRA[d.name])
  e[1], e[2], e.alias, e.metavar, e.name = negated(d) and ("no_" .. d.name) or d.name, d.flag, d.alias, d.metavar,
    d.names_runs
  if e.default == nil and d.default ~= nil and e.type ~= "boolean" and not e.help:find("(default", 1, true) then
    e.help = string.format("%s (default %s)", e.help, tostring(d.default))
  end
  return e
end

local function flags()
  local out, after = {}, {}
  for _, f in ipairs(OWN_FLAGS) do
    if f.after then after[f.after] = after[f.after] or {}; table.insert(after[f.after], f[1]) end
  end
  for _, d in ipairs(train_options.OPTIONS) do
    if d.flag then
      out[#out + 1] = flag_of(d)
      for _, own in ipairs(after[d.name] or {}) do out[#out + 1] = own end
    end
  end
  for _, f in ipairs(OWN_FLAGS) do if not f.after then out[#out + 1] = f[1] end end
  return out
end

local cmd = {name = "train",
  usage = "rlx train --model NAME|FILE.lua [--batch-size N] [--warmup-iters N] [--iters N] " ..
    "[--precision fp32|amp|bf16] [--device auto|cpu|cuda|cuda:N] [--data PATH | --synthetic] [options]",
  description = "Trains the model for --warmup-iters unmeasured and --iters measured iterations (SGD,\n" ..
    "cross-entropy) and prints images/s and the per-iteration times. With --target-ci F it warms up\n" ..
    "until steady and measures until the 95 % CI of the mean iteration time is within +/-F (or\n" ..
    "--max-iters / --max-seconds). Without --data the input is synthetic (made once on the device).\n" ..
    "Method and fields: docs/training.md.",
  options = flags(),
  epilog = "Examples: rlx train --arch resnet18 --batch-size 16 --warmup-iters 2 --iters 10 --input 64\n" ..
    "          rlx train --arch resnet50 --batch-size 16 --target-ci 0.02 --max-seconds 120"}

local function model_option(name)
  if name:match("%.lua$") then
    -- Read by the one rule for a user's files (a FIFO or a device is refused at once).
    local read, text = pcall(rlx.fs.read, name, {what = "the model file"})
    if not read then rlx.fail(2, "rlx train: " .. rlx.errors.message(rlx.errors.pass_exits(text))) end
    local chunk, err = load(text, "@" .. name)
    if not chunk then rlx.fail(2, "rlx train: cannot load model file: " .. tostring(err)) end
    return chunk()
  end
  return name
end

-- What store_run does when the study already holds the run: a label names one run, so a second
-- run with it is refused unless --replace; an unlabelled run is the next repeat of its
-- configuration (a second `rlx train --db` silently replaced the first: issue 48 item 2).
local function if_stored(o)
  if o.label then return o.replace and "replace_label" or "refuse" end
  return o.replace and "replace" or "next"
end

-- Stores the run (with its roofline points, measured when it has counters) in study o.study of
-- o.db, as a sweep stores each of its runs.
local function store(o, opts, r)
  local ok, err = pcall(function()
    local st = rlx.study{name = o.study, db = o.db}
    local config = {}
    for k, v in pairs(opts) do config[k] = v end
    config.model, config._layout = r.model, nil
    local points = rlx.roofline.for_run(r, {peaks = st:_roofline_peaks(r.device)})
    local id = st:store_run(config, r, {label = r.label, roofline = points, if_stored = if_stored(o)})
    local held = st.db:first("SELECT repeat, label FROM runs WHERE id = ?", id)
    st:close()
    if held and held["repeat"] > 1 and not o.label then
      io.stderr:write(string.format("rlx train: %s already held %d run(s) of this configuration; this one is run %d " ..
        "(label %s); --replace replaces run 1 instead\n", o.db, held["repeat"] - 1, held["repeat"],
        show.printable(held.label)))
    end
  end)
  if not ok then
    rlx.errors.pass_exits(err)  -- Ctrl-C while storing still exits 130
    rlx.fail(1, "rlx train: storing the run in " .. o.db .. " failed: " .. rlx.errors.message(err))
  end
end

-- --warmup-iters N or auto; --iters has its default only without --target-ci (rlx.train refuses both).
local function protocol(o)
  local warmup = o.warmup
  if warmup ~= nil and warmup ~= "auto" then
    warmup = rlx.options._from_text({type = "integer", min = 0, max = 100000}, warmup)
    if not warmup then
      args.usage_error("train", string.format("--warmup-iters must be a whole number from 0 to 100000, or auto, " ..
        "got '%s'", o.warmup))
    end
  end
  if o.target_ci then
    if o.iters then args.usage_error("train", "--iters is a fixed count; with --target-ci use --max-iters") end
    return warmup, nil
  end
  return warmup or train_options.default("warmup"), o.iters or train_options.default("iters")
end

-- Booleans the command always sent, false when not given (the stored configuration of --db keeps
-- the key it had); the other booleans are sent only when set.
local SENT_AS_FALSE = {deterministic = true, cudnn_benchmark = true, nvtx = true}

-- --channels-last is run_train.py's flag; it may not contradict --memory-format.
local function memory_format(o)
  if o.channels_last and o.memory_format == "contiguous" then
    args.usage_error("train", "--channels-last contradicts --memory-format contiguous; give one of them")
  end
  return o.channels_last and "channels_last" or o.memory_format
end

-- The options rlx.train gets: each declared option with a flag as parsed, and what the command
-- decides itself: the protocol, the model (a Lua file is loaded), the data, the layout.
local function train_opts(o)
  local warmup, iters = protocol(o)
  local opts = {}
  for _, d in ipairs(train_options.OPTIONS) do
    if d.flag then
      local v = o[d.name]
      if (d.flag_type or d.type) == "boolean" then
        if v then v = true elseif SENT_AS_FALSE[d.name] then v = false else v = nil end
      end
      opts[d.name] = v
    end
  end
  opts.model, opts.warmup, opts.iters = model_option(o.model), warmup, iters
  opts.data = (o.data and not o.synthetic) and o.data or "synthetic"
  opts.augment = not o.no_augment
  opts.memory_format = memory_format(o)
  return opts
end

-- What the outputs hold is checked before the training too (issue 35 item 8): an existing --db
-- must be an rlx database this rlx can write (not a newer schema), an existing metrics.csv in
-- --log-dir must have seed 000's columns. Both are only read here.
local function check_contents(o)
  local held
  local ok, err = pcall(function()
    local size = o.db and rlx.fs.check_file(o.db, {what = "the database", missing_ok = true})
    if not size or size == 0 then return end
    local db = rlx.db.open(o.db, {readonly = true})
    -- A label already stored in the study is refused now, not after the training (unless --replace).
    if o.label and not o.replace then
      held = db:first("SELECT repeat FROM runs WHERE study = ? AND label = ?", o.study, o.label)
    end
    db:close()
  end)
  if not ok then args.fail("train", rlx.errors.pass_exits(err) and ("--db: " .. rlx.errors.message(err))) end
  if held then
    rlx.fail(1, string.format("rlx train: study '%s' in %s already holds a run labelled '%s' (repeat %d); give another " ..
      "--label, or add --replace to replace it", o.study, o.db, show.printable(o.label), held["repeat"]))
  end
  if o.log_dir then
    local logged, lerr = pcall(rlx.train.check_metrics_csv, o.log_dir)
    if not logged then args.fail("train", lerr) end
  end
end

-- The memory layout when none was chosen (--memory-format auto, the default): this machine's
-- calibration of the model (rlx.calibrate), kept with --db's environment, else in the user's cache
-- database; probed once per model, precision and input (a few seconds, not part of the timed
-- run), at the input the run will train at (`input`: --input, else the dataset's). A model given
-- as a Lua file gets rlx.train's default. Returns the layout (nil: the default) and the
-- calibration, or nil, nil and the reason the probe failed: that reason is printed only when the
-- training then succeeds (a bad option fails the probe and the training alike, and is said once,
-- by the training).
local function calibrated(o, opts, input)
  if type(opts.model) ~= "string" then return nil end
  local path = o.db or rlx.calibrate.cache_db()
  local precision, device = opts.precision or "fp32", opts.device or "cpu"
  local threads = (opts.threads or 0) > 0 and opts.threads or nil  -- --threads 0: rlx.train's default
  local ok, st = pcall(rlx.study, {name = o.db and o.study or "calibrations", db = path})
  if not ok then
    rlx.errors.pass_exits(st)
    local why = rlx.errors.message(st)
    -- The store's advice is the Lua API's (readonly=true); here the cache is rlx's own file, and
    -- the fix is its permissions, or another cache (issue 56 item 7). `cause` is the message
    -- without that advice, set where the store gives it.
    if not o.db and type(st) == "table" and st.cause then
      why = string.format("the calibration cache %s cannot be written (%s); make it writable (chmod u+w on it and " ..
        "its folder), or point XDG_CACHE_HOME at a writable folder", path, st.cause)
    end
    return nil, nil, why
  end
  -- A stored row the store found unusable is named (escaped) and measured again by the layout rule.
  local _, problems = st.db:calibrations(st.env_id, rlx.calibrate.kind(device))
  for _, p in ipairs(problems or {}) do io.stderr:write("rlx train: warning: ", p, "\n") end
  if o.verbose then
    local kind, key = rlx.calibrate.kind(device), rlx.calibrate.key(opts.model, precision, input)
    local stored = rlx.calibrate.stored(st, kind, threads)[key]
    local kept = stored and rlx.calibrate.current(stored, kind, threads)
    io.stderr:write(string.format(kept and "rlx train: %s's layout as calibrated on this machine before (%s)\n" or
      "rlx train: calibrating %s on this machine (%s)\n", opts.model, path))
  end
  -- The one layout rule (rlx.plan.layout), probing what is missing into --db's study or the cache.
  local choice = layout.choose({model = opts.model, precision = precision, device = device, input = input,
    batch = opts.batch, threads = threads, classes = opts.classes, lr = opts.lr}, {study = st, probe = true})
  st:close()
  if choice.rule ~= "calibrated" then return nil, nil, choice.error end
  return choice.memory_format, choice.calibration
end

-- The input size the run will train at: --input, else the dataset's own, else 224 (the rule of
-- engine/train/trainer.cpp, which sizes the run: CIFAR-10 32, everything else 224).
local function run_input(opts, dataset)
  if opts.input then return opts.input end
  return dataset and dataset.kind == "cifar10" and 32 or 224
end

-- What --verbose says after the run: every setting that changes a step's speed, as used, and who
-- chose it (the calibration with its margin, the user, or rlx's rule on this machine).
local function settings_lines(o, r, cal, no_cal)
  local lines = {}
  local function add(fmt, ...) lines[#lines + 1] = "  " .. string.format(fmt, ...) end
  if o.memory_format and o.memory_format ~= "auto" or o.channels_last then
    add("memory format: %s (yours: --memory-format)", tostring(r.memory_format))
  elseif cal then
    add("memory format: %s", rlx.calibrate.text(cal))
  else
    add("memory format: %s (the model's default%s)", tostring(r.memory_format), no_cal and ("; no calibration: " ..
      no_cal) or "")
  end
  local quota = rlx.env.cpu_quota()
  local from = {threads = "yours: --threads", OMP_NUM_THREADS = "yours: OMP_NUM_THREADS=" ..
    tostring(os.getenv("OMP_NUM_THREADS")), cpus = "one per CPU this process may run on"}
  add("threads: %s (%s%s)", tostring(r.threads), from[r.threads_from] or ((o.threads or 0) > 0 and from.threads or
    from.cpus), quota and string.format("; the cgroup's CPU quota allows %s: %s",
      rlx.env.cpus_text(quota.cpus), quota.source) or "")
  -- What the process chose when it started, from the result's fields (engine/startup/startup.h).
  local start = type(r.startup) == "table" and r.startup or {}
  add("%s", startup_text.openmp(start.openmp_wait))
  for _, t in ipairs(rlx.version().tuning or {}) do add("%s", t) end
  local restarted = startup_text.restarts(start)
  if restarted then add("started again at start for: %s", restarted) end
  return "rlx train: settings used\n" .. table.concat(lines, "\n") .. "\n"
end

function M.main(...)
  local o = args.parse(cmd, {...})
  if not o then return 0 end
  if not o.model then
    args.usage_error("train", "--model (or --arch) is required, e.g. --model resnet18")
  end
  local opts = train_opts(o)
  -- Refused before the calibration's probe would train on the CPU for nothing, and before any
  -- other --cuda-graphs rule (--warmup-iters 0): on a machine without CUDA the real refusal came
  -- second, after a round trip to fix the warm-up (issue 56 item 7).
  if o.cuda_graphs and o.device == "cpu" then
    args.usage_error("train", "--cuda-graphs captures the step's CUDA kernels, and --device cpu runs on the CPU; " ..
      "use --device cuda or drop --cuda-graphs")
  end
  if o.cuda_graphs and (o.device == "auto" or tostring(o.device):match("^cuda")) then
    local has_cuda = false
    for _, d in ipairs(rlx.devices()) do if d.kind == "cuda" then has_cuda = true end end
    if not has_cuda then
      args.usage_error("train", "--cuda-graphs captures the step's CUDA kernels, and this machine has no CUDA " ..
        "device (rlx env lists the devices): drop --cuda-graphs, or run on a machine with an NVIDIA GPU")
    end
  end
  -- Every output is checked before the training (issue 25): --log-dir is made when missing, as
  -- the seed's kit does; an unwritable one, or a --db in a missing directory, fails in a second.
  rlx.fs.check_outputs("train", {
    {o.log_dir, "folder", {what = "--log-dir"}},
    {o.log_dir and (o.log_dir .. "/metrics.csv"), "append", {what = "--log-dir"}},
    {o.db, "database", {what = "--db"}},
  })
  check_contents(o)
  -- A dataset that cannot be read fails here, in a second, not after the calibration's probe.
  local dataset
  if opts.data ~= "synthetic" then
    local readable, d = pcall(rlx.train.dataset, opts.data)
    if not readable then args.fail("train", d) end  -- a dataset error, not a usage error: no --help hint
    dataset = d
  end
  local cal, no_cal
  if opts.memory_format == nil or opts.memory_format == "auto" then
    opts.memory_format, cal, no_cal = calibrated(o, opts, run_input(opts, dataset))
    -- The layout rule decided here (rlx.plan.layout): the result records which.
    opts._layout = cal and {rule = "calibrated", memory_format = opts.memory_format, calibration = cal} or
      {rule = "default", why = no_cal and ("no calibration: " .. no_cal) or "rlx.train's default"}
  end
  local ok, r = pcall(rlx.train, opts)
  -- An invalid value is a usage error (exit 2, the error table's `usage`); a LibTorch that does not
  -- load is a failure (exit 1); Ctrl-C passes through with its own exit code.
  if not ok then args.fail("train", r, {usage = type(r) == "table" and r.usage == true}) end
  if type(r) == "table" and cal then r.memory_format_choice = rlx.calibrate.text(cal) end
  if no_cal and r.ok then
    io.stderr:write("rlx train: no calibration (" .. no_cal .. "); the model's default layout\n")
  end
  if o.verbose and r.ok then io.stderr:write(settings_lines(o, r, cal, no_cal)) end
  if o.json then
    -- startup.restarts is a list: an empty one was written {} (an object; issue 56 item 7), since
    -- an empty Lua table encodes as {}.
    local text = rlx.json.encode(r, 2)
    if type(r.startup) == "table" and type(r.startup.restarts) == "table" and next(r.startup.restarts) == nil then
      text = text:gsub('("restarts": ){}', "%1[]")
    end
    print(text)
  elseif r.ok then
    print(rlx.train.summary_line(r))
  else
    -- The trainer says a fix that is one option's value in the Lua API's words (use device="cpu")
    -- and as data (error_cause, error_fix); here the fix is that option's flag.
    local why, fix = tostring(r.error), r.error_fix
    local option = fix and train_options.OPTIONS[fix.option]
    if option and option.flag then why = string.format("%s; use %s %s", r.error_cause, option.flag, fix.value) end
    io.stderr:write("rlx train: ", show.printable(why), "\n")  -- once, on stderr, escaped
  end
  if not r.ok then return 1 end
  if o.db then store(o, opts, r) end
  if o.log_dir then
    local logged, err = pcall(rlx.train.append_metrics_csv, o.log_dir, r)
    if not logged then args.fail("train", err) end
  end
  return 0
end

--- The flag table of docs/cli.md's "rlx train" section, as Markdown, from the flags the command
--- parses (the declared options' and its own): what each value must be is the words of its
--- check (rlx.options), the default the declaration's (tests/e2e/train/options_docs.sh).
function M._flags_markdown()
  local lines = {"| flag | option | value | default | meaning |", "| --- | --- | --- | --- | --- |"}
  for _, f in ipairs(cmd.options) do
    local d = train_options.OPTIONS[f[1]] or train_options.OPTIONS[f[1]:match("^no_(.*)$") or ""]
    local flag = "`" .. f[2] .. "`" .. (f.alias and (", `" .. f.alias .. "`") or "")
    local value = f.type == "boolean" and "(a flag)" or options._requirement(f.type and f or {type = "string"})
    local default = d and train_options.default_text(d) or (f.default ~= nil and ("`" .. tostring(f.default) .. "`")
      or "")
    lines[#lines + 1] = string.format("| %s | %s | %s | %s | %s |", flag, d and ("`" .. d.name .. "`" ..
      (f[1] ~= d.name and " = false" or "")) or "", train_options.cell(value), train_options.cell(default),
      train_options.cell(f.help))
  end
  return table.concat(lines, "\n") .. "\n"
end

M._cmd = cmd  -- its flags and positionals, for tests that walk every command (path_slots.sh)
return M
