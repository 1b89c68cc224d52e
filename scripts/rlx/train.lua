-- rlx.train: fixed-iteration training with honest timing (engine/train through rlx._core.train).
--   local r = rlx.train{model = "resnet18", batch = 32, iters = 20, warmup = 5, device = "cpu"}
--   if r.ok then print(r.images_per_s, r.iter_s.median) else print(r.error) end
-- rlx.train{...} and rlx.train.run{...} are the same call. Invalid options raise an error naming
-- the option; a run that cannot happen (no such device, missing dataset, out of memory) returns
-- ok = false with `error`. Options, results and method: docs/lua-api/train.md, docs/training.md.
local errors = require("rlx.errors")
local core = rlx._core.train
local layout_rule = require("rlx.plan.layout")
local show = require("rlx.show")
-- logs/metrics.csv as seed 000's kit writes it (code/run_train.py's header, rlx.seed_layout).
local seed_layout = require("rlx.seed_layout")
local studydb_data = require("rlx.studydb.data")
local csv = require("rlx.csv")
local M = {}

--- rlx.train's options as the engine declares them (engine/train/options.cpp), in the order it
--- reads them: {name, type, unit, min, max, default, one_of, excludes, needs, store_column, flag,
--- help, doc, sweep, ...}; OPTIONS[name] is the same entry.
M.OPTIONS = require("rlx._train_options").OPTIONS

--- Trains `iters` measured iterations after `warmup` unmeasured ones; returns the result table.
--- Without memory_format (or with "auto"), the layout is this machine's calibrated one when it has
--- one (rlx.plan.layout: the one rule of every entry point); the result says which rule chose it.
--- opts._layout (rlx.plan.layout.choose's, from `rlx train` and study sweeps, which decide the
--- layout themselves) is used as it is.
function M.run(opts)
  if type(opts) ~= "table" then
    errors.raise("rlx.train", "expected a table of options, got " .. type(opts) ..
      " (e.g. rlx.train{model = \"resnet18\", batch = 32})")
  end
  local choice, run = opts._layout, opts
  if choice ~= nil or opts.memory_format == nil or opts.memory_format == "auto" then
    run = {}
    for k, v in pairs(opts) do run[k] = v end
    run._layout = nil
    if type(choice) ~= "table" then choice = layout_rule.choose(run) end
    run.memory_format = choice.memory_format
  else
    choice = {rule = "given", memory_format = opts.memory_format}
  end
  -- The progress line's default (a terminal that understands cursor escapes, TERM not dumb) is the
  -- engine's (train::ProgressBar::stderr_is_terminal); an explicit progress = true still draws.
  return layout_rule.stamp(core.train(run), choice)
end

--- What a data source holds: {kind = "imagefolder" | "cifar10", root, classes, images}, opened
--- as rlx.train{data = path} opens it; an error names the path and what is wrong.
function M.dataset(path)
  return core.dataset(path)
end

--- The devices this machine can train on (same as rlx.devices()).
function M.devices()
  return core.devices()
end

--- One line for people: "resnet18 cpu fp32 batch 32: 95.3 img/s (median 0.335 s/iter, 2 threads)".
function M.summary_line(r)
  local fname = "rlx.train.summary_line"
  errors.expect(fname, r, "table", "the result table rlx.train returns")
  local function need(field, v, want, what)
    if type(v) ~= want then
      errors.raise(fname, string.format("result field '%s' must be %s, got %s (pass the table rlx.train returns)",
        field, what, type(v)))
    end
  end
  need("ok", r.ok, "boolean", "true or false")
  if r.ok then
    for _, f in ipairs({"model", "device", "precision"}) do need(f, r[f], "string", "a string") end
    need("batch", r.batch, "number", "a number")
    need("images_per_s", r.images_per_s, "number", "a number")
    need("iter_s", r.iter_s, "table", "a table {median = ...}")
    need("iter_s.median", r.iter_s.median, "number", "a number")
    for _, f in ipairs({"data_wait_s", "threads", "loss_first", "loss_last"}) do need(f, r[f], "number", "a number") end
  end
  -- The label (free text) and the error are a user's strings: escaped (rlx.show.printable).
  local printable = show.printable
  if not r.ok then
    return printable(string.format("%s %s %s batch %d: FAILED: %s", tostring(r.model), tostring(r.device),
      tostring(r.precision), r.batch or 0, tostring(r.error)))
  end
  local skipped = r.skipped_files and r.skipped_files > 0 and
    string.format(", %d file(s) skipped%s", r.skipped_files, r.skipped_first and (", the first " .. r.skipped_first)
      or "") or ""
  local layout = type(r.memory_format) == "string" and (r.memory_format .. ", ") or ""
  -- Data-parallel: batch is per rank, the rate is over all ranks (docs/training.md "Data-parallel").
  local dp = type(r.ranks) == "number" and r.ranks > 1 and type(r.data_parallel) == "table" and r.data_parallel
  local batch = dp and string.format("batch %d x %d ranks (global %d)", r.batch, r.ranks, r.batch * r.ranks) or
    string.format("batch %d", r.batch)
  local threads = dp and string.format("%d threads per rank", r.threads) or string.format("%d threads", r.threads)
  local comm = dp and string.format("; %s all-reduce %.4f s/step: %.0f %% of the step, %.0f %% exposed; " ..
    "%.1f MB of gradients per step", tostring(dp.backend), dp.allreduce_s or 0, (dp.comm_share or 0) * 100,
    (dp.exposed_share or 0) * 100, (dp.grad_bytes_per_step or 0) / 1e6) or ""
  return printable(string.format(
    "%s %s %s %s: %.1f img/s%s (median %.4f s/iter, data wait %.3f s, %s, %sloss %.3f -> %.3f%s%s)%s%s",
    r.model, r.device, r.precision, batch, r.images_per_s, dp and " over all ranks" or "", r.iter_s.median,
    r.data_wait_s, threads, layout, r.loss_first, r.loss_last, skipped, comm, M.protocol_note(r),
    r.label and (" [" .. r.label .. "]") or ""))
end

--- How a result was measured, for a summary line: "" for a fixed run that was steady and had its
--- cores; else "; 14 iters after 3 warm-up, CI +/-1.8 % (stopped: ci)", "; unsteady (drift +7.0 %)",
--- "; contended (1.2 other cores, CPU share 61 %)".
function M.protocol_note(r)
  local parts = {}
  if type(r.target_ci) == "number" and type(r.ci_rel) == "number" then
    parts[#parts + 1] = string.format("%s iters after %s warm-up, CI +/-%.1f %% (stopped: %s)", tostring(r.iters),
      tostring(r.warmup_used), r.ci_rel * 100, tostring(r.stop_reason))
  end
  local st = r.stability
  local judged = type(r.samples) == "table" and #r.samples >= 2  -- one sample has no verdict
  if judged and type(st) == "table" and st.stable == false and type(st.drift) == "number" then
    parts[#parts + 1] = string.format("unsteady (drift %+.1f %%, CV %.1f %%)", st.drift * 100, (st.cv or 0) * 100)
  end
  if r.contended == true then
    -- Below its threads, the cgroup's quota throttles the run whatever else runs (rlx.env.cpu_quota).
    local quota = type(r.cpu_quota) == "number" and type(r.threads) == "number" and r.cpu_quota < r.threads and
      string.format("; the cgroup's CPU quota allows %s for %d threads", rlx.env.cpus_text(r.cpu_quota), r.threads) or ""
    parts[#parts + 1] = string.format("contended (%.1f other cores, CPU share %.0f %%%s)", r.other_cpu or 0,
      (r.cpu_share or 0) * 100, quota)
  end
  return #parts > 0 and ("; " .. table.concat(parts, "; ")) or ""
end


--- The columns of seed 000's logs/metrics.csv, in order (the kit's run_train.py appends one row
--- per run; rlx.seed_layout.METRICS_COLUMNS).
M.METRICS_CSV_COLUMNS = seed_layout.METRICS_COLUMNS

local function host_name()
  local f = io.open("/proc/sys/kernel/hostname", "r")
  local name = f and f:read("*l")
  if f then f:close() end
  return name or os.getenv("HOSTNAME") or ""
end

-- The header of an existing metrics.csv as a list of names (nil for a missing or empty file), the
-- line, and whether the file ends in a newline. Read by rlx.fs.read_ends (the one reader's rule: a
-- metrics.csv linked to an endless device such as /dev/zero is refused, not read forever): at most
-- 64 KiB for the header and the last byte, never the rows between.
local function header_of(path)
  local head, last, size = rlx.fs.read_ends(path, {what = "the metrics.csv", head_bytes = 65536, tail_bytes = 1,
    missing_ok = true})
  if not head then return nil, nil, true end
  local ends_in_newline = size == 0 or last == "\n"
  local line = (head:match("^([^\n]*)") or ""):gsub("\r$", "")
  if line == "" then return nil, nil, ends_in_newline end
  local names = {}
  for name in (line .. ","):gmatch("([^,]*),") do names[#names + 1] = name end
  return names, line, ends_in_newline
end

-- The name of the device a result ran on, as the kit writes it (torch.cuda.get_device_name, "CPU").
local function device_name_of(r)
  local kind, name = studydb_data.kind_of(r.device), nil
  if kind == "cuda" then
    for _, d in ipairs(M.devices()) do
      if d.id == r.device then name = d.name end
    end
  end
  return seed_layout.device_name(kind, name), kind
end

--- Appends a successful result to DIR/metrics.csv with the kit's columns (header first when the
--- file is new or empty; DIR is created when missing, as the seed's kit does). An existing file
--- keeps its own header when rlx knows every column (the kit's, or an earlier run_train.py's shorter
--- list) and gets the row in that order. The row goes out in one O_APPEND write, so concurrent runs
--- never interleave; a file whose last line has no newline gets one first (its last row stays
--- whole); a file with a column rlx does not write is refused, nothing written. Returns the path.
-- The header of path (header_of's columns, first line, whether it ends in a newline), raising when
-- it names a column rlx does not write.
local function known_header(fname, path)
  local read, columns, line, ends_in_newline = pcall(header_of, path)
  if not read then errors.raise(fname, errors.message(errors.pass_exits(columns))) end
  local known = {}
  for _, c in ipairs(M.METRICS_CSV_COLUMNS) do known[c] = true end
  for _, c in ipairs(columns or {}) do
    if not known[c] then
      local printable = show.printable
      errors.raise(fname, string.format("%s has other columns than seed 000's metrics.csv (column '%s' of its " ..
        "first line '%s'); use another log directory", path, printable(c:sub(1, 40)), printable(line:sub(1, 80))))
    end
  end
  return columns, line, ends_in_newline
end

--- Raises when DIR/metrics.csv exists with a column rlx does not write (what append_metrics_csv
--- would refuse after the run): `rlx train --log-dir` checks it before training (issue 35 item 8).
function M.check_metrics_csv(dir)
  known_header("rlx.train.check_metrics_csv", dir .. "/metrics.csv")
end

function M.append_metrics_csv(dir, r)
  local fname = "rlx.train.append_metrics_csv"
  if type(dir) ~= "string" or dir == "" then
    errors.raise(fname, "the directory (argument 1) must be a non-empty string, got " .. type(dir))
  end
  if type(r) ~= "table" or r.ok ~= true then
    errors.raise(fname, "argument 2 must be a successful result of rlx.train (ok = true), got " ..
      (type(r) == "table" and "ok = " .. tostring(r.ok) or type(r)))
  end
  local layout = seed_layout
  local path = dir .. "/metrics.csv"
  local usable, uerr = pcall(function()
    rlx.fs.check_output(dir, "folder")
    rlx.fs.check_output(path, "append")
  end)
  if not usable then errors.raise(fname, errors.message(errors.pass_exits(uerr))) end
  local columns, _, ends_in_newline = known_header(fname, path)
  local fields = {}
  for k, v in pairs(r) do fields[k] = v end
  fields.timestamp, fields.hostname, fields.torch_version = os.time(), host_name(), rlx.version().torch
  fields.device_name, fields.backend = device_name_of(r)
  fields.warmup = r.warmup_used or r.warmup  -- the warm-up the run took (until steady, or as asked)
  local values, by_name = layout.metrics_values(fields)
  if columns then
    values = {}
    for i, c in ipairs(columns) do values[i] = by_name[c] end
  end
  local text = (ends_in_newline and "" or "\n") .. (columns and "" or csv.line(M.METRICS_CSV_COLUMNS) .. "\n") ..
    csv.line(values, columns and #columns or #M.METRICS_CSV_COLUMNS) .. "\n"
  local f, err = io.open(path, "a")
  if not f then errors.raise(fname, string.format("cannot append to %s: %s", path, tostring(err))) end
  f:setvbuf("full", #text + 64)  -- one buffer, one write(2) at close: the row lands whole
  local ok, werr = f:write(text)
  local closed, cerr = f:close()
  if not ok or not closed then
    errors.raise(fname, string.format("writing %s failed: %s", path, tostring(werr or cerr)))
  end
  return path
end

return setmetatable(M, {__call = function(_, opts) return M.run(opts) end})
