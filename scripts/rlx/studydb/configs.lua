-- rlx.studydb.configs: what a stored run's numbers mean, read from the run itself (issue 21):
--   * its full configuration beyond env, model, precision and batch: device, input size, data,
--     memory format, threads and measurement protocol. Reports and figures group by all of it, so
--     two scales of one study in one database never share a row, a series or a CI;
--   * the flags that leave it out of the means: a failed steady-state verdict (stable = 0) or
--     contention (contended = 1), each with its reason;
--   * the scale and protocol sentences every output states.
-- Fields are read defensively: the runs column first, then the stored config or result (a database
-- from an older rlx has neither the column nor the field; then rlx.train's default is stated).
local stats = require("rlx.stats")
local train_options = require("rlx._train_options")
local M = {}

-- The framework knobs of rlx.train named below (their keys and columns are written out, as they
-- were when each came); every other option declared a knob (engine/train/options.cpp: knob_over)
-- is a switch read the same way: it joins a row's key only when on and gets a column of its own,
-- so a new knob tells rows apart without a line here.
local NAMED_KNOBS = {precision = true, memory_format = true, tf32 = true, cuda_graphs = true, cudnn_benchmark = true}
local OTHER_KNOBS = {}
for _, k in ipairs(train_options.knobs()) do
  if not NAMED_KNOBS[k.name] then OTHER_KNOBS[#OTHER_KNOBS + 1] = k.name end
end

local function cfg(r) return type(r.config) == "table" and r.config or {} end
local function res(r) return type(r.result) == "table" and r.result or {} end

--- A run's value of `name`: the runs column, else the stored result's field of that name.
function M.field(r, name)
  local v = r[name]
  if v == nil then v = res(r)[name] end
  return v
end
local field = M.field

local function num(v) return type(v) == "number" and v == v and v or nil end

-- The image side: the measured column (issue 21), the result's echo (what rlx.train used), the
-- config (what was asked), else rlx.train's default of 224.
local function input_of(r)
  return num(r.input) or num(res(r).input) or num(cfg(r).input) or 224
end

local function data_of(r)
  local d = cfg(r).data or res(r).data
  if d == nil or d == "synthetic" then return "synthetic" end
  return tostring(d)
end

-- The layout as asked, else as used (rlx.train picks channels_last for a model with 4-D weights),
-- else "default" (an older result that did not say).
local function memory_format_of(r)
  local m = cfg(r).memory_format or r.memory_format or res(r).memory_format
  return m == nil and "default" or tostring(m)
end

-- Threads as asked (the config): "auto" is rlx.train's default, which each machine resolves to its
-- cores, so environments with different core counts still compare like with like.
local function threads_of(r)
  local t = cfg(r).threads
  return t == nil and "auto" or tostring(t)
end

--- The protocol of a run: {kind = "fixed", warmup, iters} or {kind = "ci", target_ci, max_iters,
--- max_seconds, warmup (as asked: a number, or nil/"auto" for warm-up until steady)}. The caps are
--- the configuration's (the study's protocol); a time budget's per-run caps live in the result
--- only and never split a row: runs to the same target measure the same thing.
function M.protocol(r)
  local c = cfg(r)
  local target = num(c.target_ci) or num(field(r, "target_ci"))
  if target then
    return {kind = "ci", target_ci = target, max_iters = num(c.max_iters), max_seconds = num(c.max_seconds),
      warmup = c.warmup}
  end
  -- A fixed run: the config's counts, else the result's echo (the sweep left them to rlx.train).
  return {kind = "fixed", warmup = num(c.warmup) or num(res(r).warmup) or num(r.warmup),
    iters = num(c.iters) or num(res(r).iters) or num(r.iters)}
end

local function protocol_key(p)
  if p.kind == "ci" then return table.concat({"ci", tostring(p.target_ci), tostring(p.warmup)}, "/") end
  return table.concat({"fixed", tostring(p.warmup), tostring(p.iters)}, "/")
end

-- Percent without trailing zeros: 0.02 -> "2", 0.025 -> "2.5".
local function pct_short(x)
  local s = string.format("%.2f", x * 100):gsub("0+$", ""):gsub("%.$", "")
  return s
end

local function protocol_short(p)
  if p.kind == "ci" then return "CI ≤ " .. pct_short(p.target_ci) .. " %" end
  return string.format("%s / %s", tostring(p.warmup or "?"), tostring(p.iters or "?"))
end

--- The number of data-parallel processes a run trained with (issue 52): the runs column, else the
--- result's or the config's `ranks`, else 1 (a run from before data-parallel training was one
--- process, and a 1-rank run's config leaves `ranks` out so its resume key is unchanged).
function M.ranks_of(r)
  local n = num(r.ranks) or num(res(r).ranks) or num(cfg(r).ranks)
  return (n and n >= 1) and math.floor(n) or 1
end

--- The images one step of a run trains over all its ranks: the runs column `global_batch`, else
--- ranks x batch (`batch` is per rank).
function M.global_batch(r)
  local g = num(r.global_batch) or num(res(r).global_batch)
  if g then return g end
  local b = num(r.batch)
  return b and b * M.ranks_of(r) or nil
end

--- The configuration of a run beyond env, model, precision and batch, each field a string:
--- {device, input, data, memory_format, threads, protocol, tf32 ("on" or "off": a CUDA fp32 run
--- with TF32 is judged against another roof), ranks (data-parallel processes, "1" for one), key}.
--- dp = {ranks = n, global_batch = images per step over all ranks} (numbers, a table so that code
--- comparing a row's string fields skips it).
-- Cache per run row, weak-keyed so rows stay plain (rlx runs --json prints them as they are).
local cache = setmetatable({}, {__mode = "k"})

-- A boolean setting of a run ("on" or "off"): the config's (what was asked), else the result's or
-- the runs column (1/0); absent: off, rlx.train's default (an rlx without the setting ran without it).
local function switch_of(r, name)
  local v = cfg(r)[name]
  if v == nil then v = res(r)[name] end
  if v == nil then v = r[name] end
  return (v == true or v == 1) and "on" or "off"
end

function M.of(r)
  if cache[r] then return cache[r] end
  local p = M.protocol(r)
  local c = {device = tostring(r.device or "cpu"), input = tostring(input_of(r)), data = data_of(r),
    memory_format = memory_format_of(r), threads = threads_of(r), protocol = protocol_key(p), p = p,
    tf32 = switch_of(r, "tf32"), cuda_graphs = switch_of(r, "cuda_graphs"),
    cudnn_benchmark = switch_of(r, "cudnn_benchmark"), ranks = tostring(M.ranks_of(r)),
    dp = {ranks = M.ranks_of(r), global_batch = M.global_batch(r)}}
  c.key = table.concat({c.device, c.input, c.data, c.memory_format, c.threads, c.protocol, c.tf32}, "|")
  -- The settings added later join the key only when on (or, for ranks, above 1), so a row's key is
  -- what it was before them.
  if c.cuda_graphs == "on" then c.key = c.key .. "|graphs" end
  if c.cudnn_benchmark == "on" then c.key = c.key .. "|cudnn_benchmark" end
  if c.dp.ranks > 1 then c.key = c.key .. "|ranks " .. c.ranks end
  for _, name in ipairs(OTHER_KNOBS) do
    c[name] = switch_of(r, name)
    if c[name] == "on" then c.key = c.key .. "|" .. name end
  end
  cache[r] = c
  return c
end

-- "2 (global batch 8)": the ranks of a data-parallel row with the images a step trains over all of
-- them (`batch` is per rank); "1" for one process.
local function ranks_cell(c)
  if c.dp.ranks == 1 then return "1" end
  return string.format("%d (global batch %s)", c.dp.ranks, c.dp.global_batch and tostring(c.dp.global_batch) or "?")
end

-- The fields a row may differ in, in column order, with the header and the cell of each.
-- cell: a table cell; text: in a sentence; short: in a figure's legend or point label.
M.FIELDS = {
  {name = "ranks", header = "Ranks", cell = ranks_cell,
    text = function(c) return c.dp.ranks == 1 and "1 rank" or (c.dp.ranks .. " ranks") end,
    short = function(c) return c.dp.ranks == 1 and "1 rank" or (c.dp.ranks .. " ranks") end},
  {name = "device", header = "Device", cell = function(c) return c.device end,
    text = function(c) return "device " .. c.device end, short = function(c) return c.device end},
  {name = "input", header = "Input", cell = function(c) return c.input end,
    text = function(c) return "input " .. c.input .. "x" .. c.input end,
    short = function(c) return c.input .. "px" end},
  {name = "data", header = "Data", cell = function(c) return c.data end,
    text = function(c) return c.data == "synthetic" and "synthetic data" or ("data " .. c.data) end,
    short = function(c) return c.data == "synthetic" and "synthetic" or (c.data:match("([^/]+)/*$") or c.data) end},
  {name = "memory_format", header = "Memory format", cell = function(c) return c.memory_format end,
    text = function(c) return c.memory_format end, short = function(c) return c.memory_format end},
  {name = "threads", header = "Threads", cell = function(c) return c.threads end,
    text = function(c) return c.threads .. " threads" end, short = function(c) return c.threads .. " thr" end},
  {name = "tf32", header = "TF32", cell = function(c) return c.tf32 end,
    text = function(c) return "TF32 " .. c.tf32 end, short = function(c) return "tf32 " .. c.tf32 end},
  {name = "cuda_graphs", header = "CUDA graphs", cell = function(c) return c.cuda_graphs end,
    text = function(c) return "CUDA graphs " .. c.cuda_graphs end,
    short = function(c) return "graphs " .. c.cuda_graphs end},
  {name = "cudnn_benchmark", header = "cuDNN benchmark", cell = function(c) return c.cudnn_benchmark end,
    text = function(c) return "cuDNN benchmark " .. c.cudnn_benchmark end,
    short = function(c) return "cudnn bench " .. c.cudnn_benchmark end},
  {name = "protocol", header = "Protocol", cell = function(c) return protocol_short(c.p) end,
    text = function(c) return "protocol " .. protocol_short(c.p) end, short = function(c) return protocol_short(c.p) end},
}
for _, name in ipairs(OTHER_KNOBS) do
  table.insert(M.FIELDS, #M.FIELDS, {name = name, header = name, cell = function(c) return c[name] end,
    text = function(c) return name .. " " .. c[name] end, short = function(c) return name .. " " .. c[name] end})
end

--- The key of a run's configuration with the fields in `skip` (a set of names: env, model,
--- precision, batch, device, ...) left out: runs with equal keys may be compared or averaged.
function M.key(r, skip)
  skip = skip or {}
  local c = M.of(r)
  local parts = {}
  for _, k in ipairs({"env_key", "model", "precision", "batch"}) do
    if not skip[k] and not (k == "env_key" and skip.env) then parts[#parts + 1] = tostring(r[k]) end
  end
  for _, f in ipairs(M.FIELDS) do
    if not skip[f.name] then parts[#parts + 1] = c[f.name] end
  end
  return table.concat(parts, "|")
end

--- The workload of a run (issue 34): model, precision, batch, input and data, the fields two
--- environments are compared on, and the ranks when above 1 (a data-parallel run trains ranks x
--- batch images a step: issue 52). The rest of a configuration (device, memory format, threads,
--- TF32, protocol) belongs to how each environment ran it, and is stated beside the comparison.
M.WORKLOAD = {"model", "precision", "batch", "input", "data", "ranks"}
function M.workload_key(r)
  local c = M.of(r)
  local key = table.concat({tostring(r.model), tostring(r.precision), tostring(r.batch), c.input, c.data}, "|")
  return c.dp.ranks > 1 and (key .. "|ranks " .. c.ranks) or key
end

--- The fields (entries of M.FIELDS) that take more than one value among runs: the columns a table
--- adds so its rows can be told apart. The device counts only when it differs inside one
--- environment key (the key already names CPU vs CUDA).
function M.varying(runs)
  local values, out = {}, {}
  for _, r in ipairs(runs) do
    local c = M.of(r)
    for _, f in ipairs(M.FIELDS) do
      local k = f.name == "device" and (tostring(r.env_key) .. "|" .. c.device) or c[f.name]
      local scope = f.name == "device" and tostring(r.env_key) or ""
      values[f.name] = values[f.name] or {}
      values[f.name][scope] = values[f.name][scope] or {}
      values[f.name][scope][k] = true
    end
  end
  for _, f in ipairs(M.FIELDS) do
    local many = false
    for _, set in pairs(values[f.name] or {}) do
      local n = 0
      for _ in pairs(set) do n = n + 1 end
      many = many or n > 1
    end
    if many then out[#out + 1] = f end
  end
  return out
end

--- Headers of the varying fields.
function M.headers(varying)
  local out = {}
  for _, f in ipairs(varying) do out[#out + 1] = f.header end
  return out
end

--- Cells of the varying fields for a run (or a group: its first run).
function M.cells(varying, r)
  local c, out = M.of(r), {}
  for _, f in ipairs(varying) do out[#out + 1] = f.cell(c) end
  return out
end

--- "input 48x48, protocol 1 / 5": the varying fields of a run in words ("" when none vary).
function M.describe(varying, r)
  local c, out = M.of(r), {}
  for _, f in ipairs(varying) do out[#out + 1] = f.text(c) end
  return table.concat(out, ", ")
end

--- "48px 2 thr": the varying fields of a run for a figure's legend ("" when none vary).
function M.short(varying, r)
  local c, out = M.of(r), {}
  for _, f in ipairs(varying) do out[#out + 1] = f.short(c) end
  return table.concat(out, " ")
end

--- A table's headers with the varying fields inserted after position `after`.
function M.splice(list, after, extra)
  local out = {}
  for i = 1, after do out[#out + 1] = list[i] end
  for _, x in ipairs(extra) do out[#out + 1] = x end
  for i = after + 1, #list do out[#out + 1] = list[i] end
  return out
end

-- Flags ---------------------------------------------------------------------------------------

--- A run's steady-state verdict (docs/training.md "Steady state"): "steady", "unsteady",
--- "unjudged" (too few timed iterations for the drift test: not stable, and not shown unsteady
--- either) or nil (not recorded). `judged` is the result's stability.judged, or the report's own
--- verdict on a run an older rlx judged by its rule (rlx.studydb.data).
function M.verdict(r)
  local stable = field(r, "stable")
  if stable == nil then return nil end
  if stable == 1 or stable == true then return "steady" end
  local st = res(r).stability
  local judged = r.judged
  if judged == nil and type(st) == "table" then judged = st.judged end
  return judged == false and "unjudged" or "unsteady"
end

--- The kinds of flags, in the order texts name them, and the word a text uses for each.
M.FLAG_KINDS = {"unsteady", "unjudged", "imprecise", "contended"}
M.FLAG_WORDS = {unsteady = "unsteady", unjudged = "too short to judge", imprecise = "imprecise",
  contended = "contended"}

--- Why a run is left out of the means: a list of {kind = "unsteady" | "unjudged" | "imprecise" |
--- "contended", text}; empty when it is kept. Unsteady: its timed iterations failed the
--- steady-state verdict (stable = 0). Unjudged: too few of them for a verdict (the trainer counts
--- such a run as not stable, so the means leave it out alike). Imprecise: its 95 % CI (ci_rel) is
--- wider than the precision its protocol accepts (config.accept_ci). Contended: the study saw
--- other processes on its cores (contended = 1).
function M.flags(r)
  local out = {}
  local verdict = M.verdict(r)
  if verdict == "unsteady" then
    local d, cv = num(field(r, "drift")), num(field(r, "cv"))
    out[#out + 1] = {kind = "unsteady", text = d and string.format("drift %+.1f %%", d * 100) or
      (cv and string.format("CV %.1f %%", cv * 100)) or nil}
  elseif verdict == "unjudged" then
    local n = num(res(r).iters)
    out[#out + 1] = {kind = "unjudged", text = n and string.format("%d timed iterations", n) or nil}
  end
  -- Imprecise: its 95 % CI missed the precision its protocol accepts (config.accept_ci, issue 30).
  local config = field(r, "config")
  local accept, ci = type(config) == "table" and num(config.accept_ci), num(field(r, "ci_rel"))
  if accept and ci and ci > accept then
    out[#out + 1] = {kind = "imprecise", text = string.format("CI ±%.1f %% > ±%g %%", ci * 100, accept * 100)}
  end
  local contended = field(r, "contended")
  if contended == 1 or contended == true then
    local other, share = num(field(r, "other_cpu")), num(field(r, "cpu_share"))
    local parts = {}
    if other then parts[#parts + 1] = string.format("%.1f other cores", other) end
    if share then parts[#parts + 1] = string.format("CPU share %.0f %%", share * 100) end
    out[#out + 1] = {kind = "contended", text = #parts > 0 and table.concat(parts, ", ") or nil}
  end
  return out
end

--- The kinds of flagged runs a text names, those that can happen to `runs`: "unsteady" (verdicts
--- recorded), "too short to judge" (a run too short for one), "imprecise" (a protocol that accepts a
--- CI: config.accept_ci) and "contended" (contention recorded): "unsteady, imprecise or contended".
function M.left_out_words(runs)
  local can = {}
  for _, r in ipairs(runs or {}) do
    local v, config = M.verdict(r), field(r, "config")
    if v == "steady" or v == "unsteady" then can.unsteady = true elseif v == "unjudged" then can.unjudged = true end
    if type(config) == "table" and num(config.accept_ci) then can.imprecise = true end
    if field(r, "contended") ~= nil then can.contended = true end
  end
  local words = {}
  for _, kind in ipairs(M.FLAG_KINDS) do
    if can[kind] then words[#words + 1] = M.FLAG_WORDS[kind] end
  end
  if #words == 0 then return "flagged" end
  if #words == 1 then return words[1] end
  return table.concat(words, ", ", 1, #words - 1) .. " or " .. words[#words]
end

--- Splits runs into those the means use and those left out: returns used, flagged ({run, flags}),
--- all_flagged. When every run is flagged, all are used (the row is shown marked, not dropped).
function M.split(runs)
  local kept, flagged = {}, {}
  for _, r in ipairs(runs) do
    local f = M.flags(r)
    if #f == 0 then kept[#kept + 1] = r else flagged[#flagged + 1] = {run = r, flags = f} end
  end
  local all = #kept == 0 and #flagged > 0
  return all and runs or kept, flagged, all
end

--- The mark a value gets when every run behind it was flagged.
M.MARK = "†"

-- "drift +10.0 %", "drift -15.0 %" -> "drift +10.0 %, -15.0 %"; several equal texts -> "3 timed
-- iterations each"; other lists joined with "; ".
local function join_texts(texts)
  local same = true
  for _, t in ipairs(texts) do same = same and t == texts[1] end
  if same and #texts > 1 then return texts[1] .. " each" end
  local word = texts[1]:match("^(%a+) ")
  for _, t in ipairs(texts) do
    if not word or t:match("^(%a+) ") ~= word or t:find(",") then return table.concat(texts, "; ") end
  end
  local rest = {}
  for i, t in ipairs(texts) do rest[i] = t:sub(#word + 2) end
  return word .. " " .. table.concat(rest, ", ")
end

--- What a row whose every run was flagged lacks, by the kinds of its flags: "none steady" (all
--- unsteady), "none long enough to judge", "none precise enough", "none uncontended", else "every run
--- flagged" (a fresh EPYC study's one imprecise VGG-16 run was called "none steady" though steady).
function M.none_text(flagged)
  local kinds = {}
  for _, f in ipairs(flagged) do for _, x in ipairs(f.flags) do kinds[x.kind] = true end end
  local only
  for k in pairs(kinds) do
    if only then return "every run flagged" end
    only = k
  end
  return ({unsteady = "none steady", unjudged = "none long enough to judge", imprecise = "none precise enough",
    contended = "none uncontended"})[only] or "every run flagged"
end

--- The row's note: "1 of 3 runs unsteady (drift +12.0 %), left out"; "-" when nothing was left
--- out; "3 of 3 runs unsteady (...): none steady, all kept, marked †" when every run was flagged.
function M.note(runs)
  local _, flagged, all = M.split(runs)
  if #flagged == 0 then return "-" end
  local kinds, order = {}, {}
  for _, f in ipairs(flagged) do
    for _, x in ipairs(f.flags) do
      if not kinds[x.kind] then kinds[x.kind] = {n = 0, texts = {}}; order[#order + 1] = x.kind end
      kinds[x.kind].n = kinds[x.kind].n + 1
      if x.text then table.insert(kinds[x.kind].texts, x.text) end
    end
  end
  local parts = {}
  for i, k in ipairs(order) do
    local e = kinds[k]
    parts[#parts + 1] = string.format("%d of %d%s %s%s", e.n, #runs, i == 1 and " runs" or "",
      M.FLAG_WORDS[k] or k,
      #e.texts > 0 and (" (" .. join_texts(e.texts) .. ")") or "")
  end
  local text = table.concat(parts, ", ")
  if all then return text .. ": " .. M.none_text(flagged) .. ", all kept, marked " .. M.MARK end
  return text .. ", left out" .. M.kept_note(runs, #runs - #flagged)
end

-- "the highest", "the lowest", "the 2nd highest": the place of x among values, highest first.
-- The images/s of the runs that have one.
local function values_of(runs)
  local all = {}
  for _, r in ipairs(runs) do
    local v = num(r.images_per_s)
    if v then all[#all + 1] = v end
  end
  return all
end

local function rank_words(x, values)
  local higher, lower = 0, 0
  for _, v in ipairs(values) do
    if v > x then higher = higher + 1 elseif v < x then lower = lower + 1 end
  end
  if higher == 0 then return "the highest" end
  if lower == 0 then return "the lowest" end
  local k = higher + 1
  local suffix = (k % 10 == 2 and k % 100 ~= 12) and "nd" or (k % 10 == 3 and k % 100 ~= 13) and "rd" or "th"
  return string.format("the %d%s highest", k, suffix)
end

--- What a filtered row's mean hides (issue 30: ResNet-50 batch 16 kept its highest run, 4.37
--- images/s, beside 3.89 and 4.06 left out): "; all 3 runs: 4.10 images/s", and, when one run is
--- kept, "; the one kept is the highest of 3". "" when nothing was left out.
function M.kept_note(runs, kept)
  if kept >= #runs or kept == 0 then return "" end
  local all = values_of(runs)
  if #all < 2 then return "" end
  local mean = stats.mean(all)
  local digits = math.max(0, 2 - math.floor(math.log10(math.abs(mean))))
  local out = string.format("; all %d runs: %." .. digits .. "f images/s", #all, mean)
  local rank = kept == 1 and M.kept_rank(runs)
  if rank then out = out .. string.format("; the one kept is %s of %d", rank, #all) end
  return out
end

--- Where the one run a row kept stands among all its runs' images/s ("the highest", "the 2nd
--- highest", "the lowest"), as kept_note says it; nil unless the row kept one run of two or more
--- with images/s. Table 2's n cell reads it ("1 of 3 (the highest)").
function M.kept_rank(runs)
  local all, used_values = values_of(runs), {}
  if #runs <= 1 or #all < 2 then return nil end
  for _, r in ipairs(runs) do
    if #M.flags(r) == 0 then used_values[#used_values + 1] = num(r.images_per_s) end
  end
  return used_values[1] and rank_words(used_values[1], all) or nil
end

-- Scale and protocol ----------------------------------------------------------------------------

--- Timed iterations a run measured: seconds (the sum of its timed iterations) / mean iteration time,
--- else the iters column.
function M.measured_iters(r)
  local s, m = num(r.seconds), num(r.iter_mean_s)
  if s and m and m > 0 then return math.floor(s / m + 0.5) end
  return num(r.iters)
end

local function range(xs)
  if #xs == 0 then return nil end
  local lo, hi = math.huge, -math.huge
  for _, x in ipairs(xs) do lo, hi = math.min(lo, x), math.max(hi, x) end
  return lo == hi and tostring(lo) or (tostring(lo) .. "-" .. tostring(hi))
end

-- The protocols of runs (in order of appearance) with their runs: {{p = protocol, runs = {...}}}.
local function by_protocol(runs)
  local out, idx = {}, {}
  for _, r in ipairs(runs) do
    local c = M.of(r)
    if not idx[c.protocol] then idx[c.protocol] = #out + 1; out[#out + 1] = {p = c.p, runs = {}} end
    table.insert(out[idx[c.protocol]].runs, r)
  end
  return out
end

local function ci_parts(e)
  local warm, timed = {}, {}
  for _, r in ipairs(e.runs) do
    local w = num(field(r, "warmup_used"))
    if w then warm[#warm + 1] = w end
    if r.status == "ok" then timed[#timed + 1] = M.measured_iters(r) end
  end
  local caps = {}
  if e.p.max_iters then caps[#caps + 1] = tostring(e.p.max_iters) .. " iterations" end
  if e.p.max_seconds then caps[#caps + 1] = tostring(e.p.max_seconds) .. " s" end
  return range(warm), range(timed), caps
end

--- The protocol in a table cell: "1 / 5" (warm-up / timed) for fixed counts; for a precision
--- target "auto (1-3) / until 95 % CI ≤ 2 % (3-100)": warm-up until steady (the counts used),
--- then timed until the CI half-width is within the target (the counts measured).
function M.protocol_cell(runs)
  local out = {}
  for _, e in ipairs(by_protocol(runs)) do
    if e.p.kind == "ci" then
      local warm, timed = ci_parts(e)
      local w = type(e.p.warmup) == "number" and tostring(e.p.warmup) or ("auto" .. (warm and (" (" .. warm .. ")") or ""))
      out[#out + 1] = string.format("%s / until 95 %% CI ≤ %s %%%s", w, pct_short(e.p.target_ci),
        timed and (" (" .. timed .. ")") or "")
    else
      out[#out + 1] = protocol_short(e.p)
    end
  end
  return table.concat(out, "; ")
end

--- The protocol in words, each with the precision its runs reached: "1 warm-up + 5 timed
--- iterations, 95 % CI reached ±0.4-2.1 % (median ±0.9 %)" or "warm-up until steady (1-3
--- iterations), then timed until the 95 % CI of the mean iteration time was within ±2 % or a cap
--- stopped it (cap 100 iterations, 60 s; 3-100 timed), 95 % CI reached ... (...; 2 of 9 runs above
--- their ±2 % target)".
function M.protocol_text(runs)
  local out = {}
  for _, e in ipairs(by_protocol(runs)) do
    if e.p.kind == "ci" then
      local warm, timed, caps = ci_parts(e)
      local w = type(e.p.warmup) == "number" and string.format("%d warm-up iterations", e.p.warmup) or
        ("warm-up until steady" .. (warm and (" (" .. warm .. " iterations)") or ""))
      local tail = {}
      if #caps > 0 then tail[#tail + 1] = "cap " .. table.concat(caps, ", ") end
      if timed then tail[#tail + 1] = timed .. " timed" end
      out[#out + 1] = string.format("%s, then timed until the 95 %% CI of the mean iteration time was within ±%s %% " ..
        "or a cap stopped it%s", w, pct_short(e.p.target_ci), #tail > 0 and (" (" .. table.concat(tail, "; ") .. ")") or "")
    else
      out[#out + 1] = string.format("%s warm-up + %s timed iterations", tostring(e.p.warmup or "?"),
        tostring(e.p.iters or "?"))
    end
    -- What the runs reached, beside what was asked (issue 30).
    local reached = M.precision_text(e.runs)
    if reached then out[#out] = out[#out] .. ", " .. reached end
  end
  -- Several protocols: each names the environments whose runs it was (issue 55: "; 0 warm-up + 1
  -- timed" named none).
  local groups = by_protocol(runs)
  if #groups > 1 then
    for i, e in ipairs(groups) do
      local seen, names = {}, {}
      for _, r in ipairs(e.runs) do
        local k = r.env_key or r.env
        if k and not seen[k] then seen[k] = true; names[#names + 1] = tostring(k) end
      end
      if #names > 0 then out[i] = table.concat(names, ", ") .. ": " .. out[i] end
    end
  end
  return table.concat(out, "; ")
end

--- The distinct image sides of runs, ascending (numbers).
function M.inputs(runs)
  local set, out = {}, {}
  for _, r in ipairs(runs) do
    local i = tonumber(M.of(r).input)
    if i and not set[i] then set[i] = true; out[#out + 1] = i end
  end
  table.sort(out)
  return out
end

-- A no-break space (U+00A0): "95 % CI" and "13.9 %" never wrap between their parts in a figure's
-- subtitle (Figure A's subtitle broke as "95 / % CI").
M.NBSP = "\194\160"

-- A CI half-width in percent: one decimal from 1 % up, two below ("0.05", "13.9").
local function ci_pct(x)
  local v = x * 100
  return string.format(v < 1 and "%.2f" or "%.1f", v)
end

--- The precision the ok runs reached (issue 30: reported as achieved, never as targeted): the
--- half-width of the 95 % CI of each run's mean iteration time over that mean (ci_rel, stored by
--- rlx.train for every protocol). Returns nil when no run stored one, else {n, lo, hi, median,
--- targets (the distinct target_ci asked, ascending; empty for fixed counts), missed (runs above
--- their own target), with_target (runs that had one)}.
function M.precision_reached(runs)
  local xs, targets, seen, missed, with_target = {}, {}, {}, 0, 0
  for _, r in ipairs(runs) do
    local ci = (r.status == nil or r.status == "ok") and num(field(r, "ci_rel")) or nil
    if ci then
      xs[#xs + 1] = ci
      local t = M.protocol(r).target_ci
      if t then
        with_target = with_target + 1
        if not seen[t] then seen[t] = true; targets[#targets + 1] = t end
        if ci > t then missed = missed + 1 end
      end
    end
  end
  if #xs == 0 then return nil end
  table.sort(xs)
  table.sort(targets)
  return {n = #xs, lo = xs[1], hi = xs[#xs], median = stats.median(xs), targets = targets, missed = missed,
    with_target = with_target}
end

--- "95 % CI reached ±1.6-49.2 % (median ±13.9 %; 25 of 27 runs above their ±2 % target)": the
--- precision of runs as reached (M.precision_reached), nil when none stored it. opts.nb: join
--- numbers and units with no-break spaces (figure subtitles). Returns the text and the numbers.
function M.precision_text(runs, opts)
  local p = M.precision_reached(runs)
  if not p then return nil end
  local sp = (opts and opts.nb) and M.NBSP or " "
  local span = "±" .. ci_pct(p.lo) .. (p.hi > p.lo and ("-" .. ci_pct(p.hi)) or "") .. sp .. "%"
  local text = string.format("95%s%% CI reached %s (median ±%s%s%%", sp, span, ci_pct(p.median), sp)
  if #p.targets > 0 then
    local ts = {}
    for i, t in ipairs(p.targets) do ts[i] = "±" .. pct_short(t) .. sp .. "%" end
    text = text .. string.format("; %d of %d run%s above %s %s target", p.missed, p.with_target,
      p.with_target == 1 and "" or "s", p.with_target == 1 and "its" or "their", table.concat(ts, "/"))
  end
  return text .. ")", p
end

--- The scale of runs in a few words, for a figure's subtitle: "224x224 synthetic, warm-up until
--- steady + 3 timed iters (target 95 % CI ≤ 2 %), 95 % CI reached ±1.6-49.2 % (median ±13.9 %; ...)"
--- or "32x32 synthetic, 1 warm-up + 5 timed iters, 95 % CI reached ..." (each distinct input, data
--- and protocol named once; the precision as the runs reached it, never only the target). With
--- opts.timing = false only the input and data (a figure of formula-derived quantities).
function M.scale_text(runs, opts)
  local sizes = {}
  for _, i in ipairs(M.inputs(runs)) do sizes[#sizes + 1] = i .. "x" .. i end
  local data, seen = {}, {}
  for _, r in ipairs(runs) do
    local d = M.of(r).data
    local short = d == "synthetic" and d or (d:match("([^/]+)/*$") or d)
    if not seen[short] then seen[short] = true; data[#data + 1] = short end
  end
  local parts = {}
  if #sizes > 0 then parts[#parts + 1] = table.concat(sizes, " and ") .. " " .. table.concat(data, ", ") end
  if opts and opts.timing == false then return table.concat(parts, ", ") end
  local nb = M.NBSP
  for _, e in ipairs(by_protocol(runs)) do
    if e.p.kind == "ci" then
      local _, timed = ci_parts(e)
      parts[#parts + 1] = string.format("%s timed iters (target 95%s%% CI ≤ %s%s%%)", timed or "?", nb,
        pct_short(e.p.target_ci), nb)
    else
      parts[#parts + 1] = string.format("%s warm-up + %s timed iters", tostring(e.p.warmup or "?"),
        tostring(e.p.iters or "?"))
    end
  end
  local reached = M.precision_text(runs, {nb = true})
  if reached then parts[#parts + 1] = reached end
  return table.concat(parts, ", ")
end

return M
