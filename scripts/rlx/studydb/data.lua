-- rlx.studydb.data: everything a report and the figures show, read from a study database into
-- plain Lua tables through the store's reads (engine/store: runs.cpp, report_reads.cpp; no SQL
-- here). All reading is in this file, so the report's sections and rlx.figures never touch the
-- database and a report can be written from a read-only file (rlx report DB) or an open study
-- (study:report). rlx.studydb sits below both: it requires neither.
--
--   local D = require("rlx.studydb.data").load(db, "p1-roofline", "results/p1-roofline.db")
-- D.runs (every run, any status), D.ok, D.failed, D.envs (ordered by label), D.groups (ok runs per
-- full configuration: env x model x precision x batch x the rest of rlx.studydb.configs, in table
-- order), D.varying (the configuration fields the ok runs differ in: the columns tables add),
-- D.peaks[env_id][kind], D.points[run_id], D.complexity[run_id], D.counters[run_id],
-- D.calibrations (each model's layout chosen per environment), D.plans (each rlx run's plan).
local configs = require("rlx.studydb.configs")
local errors = require("rlx.errors")
local M = {}

-- The device kind of a run: cuda, mps (an Apple GPU, in runs imported from the seed's kit: rlx
-- itself cannot train there) or cpu.
local function kind_of(device)
  local d = tostring(device or "cpu")
  return d:match("^cuda") and "cuda" or d:match("^mps") and "mps" or "cpu"
end
M.kind_of = kind_of

-- The seed's order of models and precisions (fp32 first), shared with the figures and sections.
local MODEL_ORDER = {resnet50 = 1, vgg16 = 2, mobilenet_v2 = 3}
local PRECISION_ORDER = {fp32 = 1, bf16 = 2, amp = 3, fp16 = 4}
M.MODEL_ORDER, M.PRECISION_ORDER = MODEL_ORDER, PRECISION_ORDER
local function rank(order, v) return order[v] or 99 end

--- Orders rows by env, model (seed order), precision (fp32 first), batch, configuration, repeat.
function M.sort_rows(rows)
  table.sort(rows, function(a, b)
    if a.env_key ~= b.env_key then return a.env_key < b.env_key end
    if a.model ~= b.model then
      local x, y = rank(MODEL_ORDER, a.model), rank(MODEL_ORDER, b.model)
      if x ~= y then return x < y end
      return a.model < b.model
    end
    if a.precision ~= b.precision then
      local x, y = rank(PRECISION_ORDER, a.precision), rank(PRECISION_ORDER, b.precision)
      if x ~= y then return x < y end
      return tostring(a.precision) < tostring(b.precision)
    end
    if a.batch ~= b.batch then return (a.batch or 0) < (b.batch or 0) end
    -- Then the rest of the configuration: the smaller input first, any other difference by its key.
    local ca, cb = configs.of(a), configs.of(b)
    if ca.key ~= cb.key then
      local x, y = tonumber(ca.input) or 0, tonumber(cb.input) or 0
      if x ~= y then return x < y end
      return ca.key < cb.key
    end
    return (a.run or 0) < (b.run or 0)
  end)
  return rows
end

-- The environment key a report and the figures group by (figure file names use it, so the report's
-- links match): the env's name (M.name_environments: the label, with a suffix where two
-- environments share it or one is emulated), suffixed with the device kind when one environment
-- ran both CPU and CUDA sweeps. Sets r.kind and r.env_key on every row.
local function assign_env_keys(runs)
  local kinds = {}
  for _, r in ipairs(runs) do
    kinds[r.env] = kinds[r.env] or {}
    kinds[r.env][kind_of(r.device)] = true
  end
  for _, r in ipairs(runs) do
    local n = 0
    for _ in pairs(kinds[r.env]) do n = n + 1 end
    r.kind = kind_of(r.device)
    r.env_key = n > 1 and (r.env .. "_" .. r.kind) or r.env
  end
end
M.assign_env_keys = assign_env_keys

-- The ISA class of an x86-64 CPU from its flags ("AVX-512", "AVX2"), else the ISA rlx recorded
-- (info.isa: "arm64 SVE2 (512-bit) + NEON, ..."); nil when neither is known.
local function isa_class(e)
  local flags = " " .. tostring(e.cpu_flags or (e.info or {}).cpu_flags or "") .. " "
  if flags:find(" amx_tile ", 1, true) then return "AMX" end
  if flags:find(" avx512f ", 1, true) then return "AVX-512" end
  if flags:find(" avx2 ", 1, true) then return "AVX2" end
  local isa = (e.info or {}).isa
  return type(isa) == "string" and isa ~= "" and isa or nil
end

-- The torch version of an environment: its framework record's (info.framework.torch, rlx from issue
-- 51 on), else the environments table's `torch` column.
local function torch_of(e)
  local fw = (e.info or {}).framework
  local v = type(fw) == "table" and fw.torch or e.torch
  return v ~= nil and v ~= "" and tostring(v) or nil
end

-- The size of the largest cache level of a CPU (an L2 or L3 that differs between two CPUs of one
-- model name, as Zen 3 and Zen 5 EPYCs): "L2 1 MiB".
local function caches_of(e)
  local list = (e.info or {}).cpu_caches
  if type(list) ~= "table" then return nil end
  local parts = {}
  for _, c in ipairs(list) do
    if type(c) == "table" and c.type ~= "Instruction" and tonumber(c.size_bytes) then
      parts[#parts + 1] = string.format("L%s %d KiB", tostring(c.level), math.floor(c.size_bytes / 1024))
    end
  end
  return #parts > 0 and table.concat(parts, " ") or nil
end

-- What an environment is (issue 55: environments are identities, not labels), in the order a
-- suffix names them: each field's text, or nil when unknown. The first fields that tell a label's
-- environments apart become its suffix.
local IDENTITY = {
  function(e) local isa = isa_class(e); return e.cpu_model and (tostring(e.cpu_model) .. (isa and (" " .. isa) or "")) or isa end,
  function(e) return e.gpu_name and e.gpu_name ~= "" and tostring(e.gpu_name) or nil end,
  function(e) return e.cpu_cores and (tostring(e.cpu_cores) .. " cores") or nil end,
  function(e) return tonumber(e.memory_bytes) and string.format("%.0f GB", e.memory_bytes / 1e9) or nil end,
  function(e) return e.gpu_driver and e.gpu_driver ~= "" and ("driver " .. tostring(e.gpu_driver)) or nil end,
  function(e) local t = torch_of(e); return t and ("torch " .. t) or nil end,
  function(e)
    local fw = (e.info or {}).framework
    return type(fw) == "table" and fw.torch_git and ("torch git " .. tostring(fw.torch_git):sub(1, 7)) or nil
  end,
  function(e) return e.cuda and e.cuda ~= "" and ("CUDA " .. tostring(e.cuda)) or nil end,
  function(e) return "container " .. tostring(e.container or "none") end,
  caches_of,
  function(e) return e.host and ("host " .. tostring(e.host)) or nil end,
  function(e) return e.kernel and ("kernel " .. tostring(e.kernel):match("^%S+")) or nil end,
  function(e) return e.rlx and ("rlx " .. tostring(e.rlx)) or nil end,
}

--- Whether an environment ran under an emulator (rlx env's info.emulation, e.g. qemu-user): its
--- numbers are the emulator's, not the CPU's.
function M.emulated(e)
  local info = type(e) == "table" and e.info or nil
  return type(info) == "table" and type(info.emulation) == "table"
end

--- Names the environments (issue 55): each keeps its stored label in e.label_stored, and e.label
--- becomes the label alone, or the label plus a suffix in brackets that names what tells it apart
--- from the other environments (different ids) with that label ("epyc-2c [AMD EPYC AVX2]",
--- "epyc-2c [torch 2.11.0]"), and that it was emulated ("qemu-arm64-2c [emulated]"). Every run
--- takes its environment's name in r.env (r.env_label: the stored label), r.emulated and
--- r.env_shared (another environment has its label: `rlx runs --env-id` tells them apart); calls
--- assign_env_keys. Idempotent (a combined D names again from the stored labels).
function M.name_environments(envs, runs, calibrations)
  local by_label, order = {}, {}
  for _, e in ipairs(envs) do
    e.label_stored = e.label_stored or e.label
    local l = tostring(e.label_stored)
    if not by_label[l] then by_label[l] = {}; order[#order + 1] = l end
    table.insert(by_label[l], e)
  end
  local name_of = {}
  for _, l in ipairs(order) do
    local list = by_label[l]
    local parts = {}
    for i = 1, #list do parts[i] = {} end
    if #list > 1 then
      local distinct = false
      for _, field in ipairs(IDENTITY) do
        local vals, differ = {}, false
        for i, e in ipairs(list) do vals[i] = field(e) or "?"; differ = differ or vals[i] ~= vals[1] end
        if differ then
          local seen = {}
          distinct = true
          for i in ipairs(list) do
            parts[i][#parts[i] + 1] = vals[i]
            local k = table.concat(parts[i], ", ")
            if seen[k] then distinct = false end
            seen[k] = true
          end
          if distinct then break end
        end
      end
      if not distinct then
        for i, e in ipairs(list) do parts[i][#parts[i] + 1] = "env " .. tostring(e.id):sub(1, 8) end
      end
    end
    for i, e in ipairs(list) do
      if M.emulated(e) then parts[i][#parts[i] + 1] = "emulated" end
      e.emulated, e.shared = M.emulated(e), #list > 1
      e.label = #parts[i] > 0 and string.format("%s [%s]", l, table.concat(parts[i], ", ")) or l
      e.suffix = #parts[i] > 0 and table.concat(parts[i], ", ") or nil
      name_of[e.id] = e
    end
  end
  for _, r in ipairs(runs) do
    local e = name_of[r.environment_id]
    r.env_label = r.env_label or r.env
    if e then r.env, r.emulated, r.env_shared = e.label, e.emulated or nil, e.shared or nil end
  end
  for _, c in ipairs(calibrations or {}) do
    local e = name_of[c.environment_id]
    if e then c.env = e.label end
  end
  assign_env_keys(runs)
end

-- The environments of the runs, with the device kinds each ran.
local function environments(db, name, runs)
  local used = {}
  for _, r in ipairs(runs) do
    used[r.environment_id] = used[r.environment_id] or {}
    used[r.environment_id][r.kind] = true
  end
  local out = {}
  for _, e in ipairs(db:study_environments(name)) do
    if used[e.id] then
      e.info = type(e.info) == "table" and e.info or {}
      e.kinds = used[e.id]
      out[#out + 1] = e
    end
  end
  return out
end

-- The latest stored peaks of each environment and device kind it ran ({[env_id] = {cpu = ...}}).
local function peaks(db, envs)
  local out = {}
  for _, e in ipairs(envs) do
    for kind in pairs(e.kinds) do
      local p = db:peaks(e.id, kind)
      if p then
        out[e.id] = out[e.id] or {}
        out[e.id][kind] = p
      end
    end
  end
  return out
end

local function by_run(rows)
  local out = {}
  for _, r in ipairs(rows) do
    out[r.run_id] = out[r.run_id] or {}
    table.insert(out[r.run_id], r)
  end
  return out
end

-- Runs an older rlx stored carry its rule's verdict (stability without `judged`: a drift between
-- single samples beyond 5 % was unsteady, even from three samples). The report judges them again by
-- today's rule (rlx.stats.steady_state, the trainer's own) from their stored samples, so two
-- databases read alike; r.old_verdict keeps what was stored for the report to say so. The
-- thresholds are today's as well: the old rule's CV limit (10 %) was a precision test, which the
-- CI now is.
local function rejudge_old_verdicts(db, name, runs)
  local old = {}
  for _, r in ipairs(runs) do
    local st = type(r.result) == "table" and r.result.stability
    if r.status == "ok" and type(st) == "table" and st.judged == nil then old[r.id] = r end
  end
  if next(old) == nil then return end
  for _, s in ipairs(db:runs{study = name, status = "ok", samples = true}) do
    local r = old[s.id]
    if r and type(s.samples) == "table" and #s.samples > 0 then
      local v = rlx.stats.steady_state(s.samples)
      r.old_verdict = {stable = r.stable, drift = r.drift, cv = r.cv}
      r.stable, r.judged, r.drift, r.cv = v.stable and 1 or 0, v.judged, v.drift, v.cv
    end
  end
end

-- The superseded attempts of the study (run_attempts, schema 10; issue 55): what the report's §4.2
-- plots beside the runs to show the machine's drift, never a run. The store has no read of its own
-- for them yet (a binding belongs to host/bindings), so this one bound query reads the table.
local ATTEMPT_COLUMNS = "id, study, environment_id, config_key, \"repeat\" AS run, label, attempt, status, " ..
  "images_per_s, started_at, finished_at, floor_gflops, superseded_by, why"
local function attempts(db, name)
  if db:schema_version() < 10 then return {} end
  if name then
    return db:query("SELECT " .. ATTEMPT_COLUMNS .. " FROM run_attempts WHERE study = ? ORDER BY finished_at", name)
  end
  return db:query("SELECT " .. ATTEMPT_COLUMNS .. " FROM run_attempts ORDER BY finished_at")
end

--- Reads the study `name` of the open database `db` (any study when name is nil) through the
--- store's reads (conn:runs, conn:points, conn:peaks, conn:study_environments, ...).
--- The most runs a report reads (issue 56 item 6: a report of 100,000 runs took 22 s and 2.5 GB);
--- far beyond any study rlx plans (the default: about 30), a few seconds and a few hundred MB.
M.MAX_RUNS = 20000

function M.load(db, name, path)
  -- Counted before anything is read: a database beyond the bound is refused in a second.
  local counted = name and db:query("SELECT count(*) AS n FROM runs WHERE study = ?", name) or
    db:query("SELECT count(*) AS n FROM runs")
  local n = counted[1] and counted[1].n or 0
  if n > M.MAX_RUNS then
    errors.raise("rlx.report", string.format("%s holds %d runs%s, more than the %d one report reads (a few seconds " ..
      "and a few hundred MB); keep the study's runs in databases of fewer runs and report each", tostring(path or
      "the database"), n, name and (" of study " .. name) or "", M.MAX_RUNS))
  end
  local runs = db:runs{study = name}
  rejudge_old_verdicts(db, name, runs)
  assign_env_keys(runs)
  local D = {study = name, path = path, runs = runs, ok = {}, failed = {}, running = {}}
  D.envs = environments(db, name, runs)
  D.peaks = peaks(db, D.envs)
  -- What the study measured before training (calibrations: each model's layout, per environment
  -- and kind) and each `rlx run` of it (plans: estimate, wall time, what the budget left out).
  -- A database older than schema version 6 has neither.
  D.calibrations, D.plans = {}, {}
  if db:schema_version() >= 6 then
    for _, e in ipairs(D.envs) do
      for kind in pairs(e.kinds or {}) do
        for _, c in ipairs(db:calibrations(e.id, kind)) do
          c.env, c.environment_id = e.label, c.environment_id or e.id
          D.calibrations[#D.calibrations + 1] = c
        end
      end
    end
    D.plans = name and db:plans(name) or {}
  end
  M.name_environments(D.envs, runs, D.calibrations)
  table.sort(D.envs, function(a, b) return tostring(a.label) < tostring(b.label) end)
  M.sort_rows(runs)
  for _, r in ipairs(runs) do
    if r.status == "ok" then D.ok[#D.ok + 1] = r
    elseif r.status == "failed" then D.failed[#D.failed + 1] = r
    else D.running[#D.running + 1] = r end  -- running (unfinished) or crashed
  end
  D.points = by_run(db:points{study = name})
  D.counters = by_run(db:study_counters(name))
  D.complexity = {}
  for _, c in ipairs(db:study_complexity(name)) do
    local info = type(c.info) == "table" and c.info or {}
    for k, v in pairs(c) do if k ~= "info" and info[k] == nil then info[k] = v end end
    D.complexity[c.run_id] = info
  end
  D.groups = M.group(D.ok)
  D.varying = configs.varying(D.ok)
  D.attempts = attempts(db, name)
  return D
end

--- Reads several studies (each {db =, study =, path =}: an open database, the study to read, nil for
--- every study of it, and its path) into one D, as if they had been merged (`rlx merge`) and the
--- merged file read, without writing anything: runs are taken once by id (the first source's copy
--- of a run two inputs hold) and by rlx merge's slot rule (D.conflicts: a later input's run whose
--- slot an earlier one holds is skipped, or replaces a failed attempt; D.running_skipped: runs
--- still marked running are left out), environments once by id (content hashes, so one machine in
--- two databases is one environment, and two machines with one label stay two:
--- M.name_environments), each environment's latest peaks. D.sources lists the sources
--- ({path, study, runs}) in order; M.source_of(D, run) says which one holds a run. With one source
--- it is M.load's D, with sources added.
function M.load_many(list)
  local Ds = {}
  for i, s in ipairs(list) do Ds[i] = M.load(s.db, s.study, s.path) end
  if #Ds == 1 then
    Ds[1].sources = {{path = Ds[1].path, study = Ds[1].study, runs = #Ds[1].runs}}
    return Ds[1]
  end
  return M.combine(Ds)
end

-- The later of two peaks tables (measured_at, an ISO time: text order is time order).
local function later(a, b)
  if not a then return b end
  if not b then return a end
  return tostring(b.measured_at or "") > tostring(a.measured_at or "") and b or a
end

--- One D from several loaded ones (M.load_many's rules); each run keeps its source.
function M.combine(Ds)
  local D = {runs = {}, ok = {}, failed = {}, running = {}, envs = {}, peaks = {}, calibrations = {}, plans = {},
    points = {}, counters = {}, complexity = {}, sources = {}, source_by_run = {}, source_by_env = {}}
  local seen_run, env_at, seen_cal, slot_of, dropped = {}, {}, {}, {}, {}
  D.conflicts, D.running_skipped = {}, {}
  for _, d in ipairs(Ds) do
    local src = {path = d.path, study = d.study, runs = 0}
    D.sources[#D.sources + 1] = src
    for _, r in ipairs(d.runs) do
      -- rlx merge's rule for a run whose slot (study, environment id, configuration, repeat) an
      -- earlier input holds with another run (engine/store/merge_slots.cpp, without --as-repeats):
      -- an ok run replaces a failed or crashed attempt, anything else is skipped; a run still marked
      -- running is not copied at all. So `rlx report A.db B.db` is the report of `rlx merge`'s file.
      local slot = table.concat({tostring(r.study), tostring(r.environment_id), tostring(r.config_key),
        tostring(r.run)}, "|")
      local held = slot_of[slot]
      local fresh = not seen_run[r.id]  -- the same run in two inputs: taken once, from the first
      if not fresh then
        src.duplicates = (src.duplicates or 0) + 1
      elseif r.status == "running" then
        D.running_skipped[#D.running_skipped + 1] = {run = r, source = src}
      elseif held and held.id ~= r.id and not (r.status == "ok" and held.status ~= "ok") then
        D.conflicts[#D.conflicts + 1] = {action = "skipped", run = r, source = src, held = held,
          held_source = D.source_by_run[held.id]}
      else
        if held and held.id ~= r.id then
          dropped[held.id] = true
          D.source_by_run[held.id].runs = D.source_by_run[held.id].runs - 1
          D.conflicts[#D.conflicts + 1] = {action = "replaced", run = r, source = src, held = held,
            held_source = D.source_by_run[held.id]}
        end
        seen_run[r.id] = true
        slot_of[slot] = r
        src.runs = src.runs + 1
        D.runs[#D.runs + 1] = r
        D.source_by_run[r.id] = src
        D.points[r.id], D.counters[r.id], D.complexity[r.id] = d.points[r.id], d.counters[r.id], d.complexity[r.id]
      end
    end
    for _, e in ipairs(d.envs) do
      local have = env_at[e.id]
      if have then
        for k in pairs(e.kinds or {}) do have.kinds[k] = true end
      else
        env_at[e.id] = e
        D.envs[#D.envs + 1] = e
        D.source_by_env[e.id] = src
      end
      for kind, p in pairs(d.peaks[e.id] or {}) do
        D.peaks[e.id] = D.peaks[e.id] or {}
        D.peaks[e.id][kind] = later(D.peaks[e.id][kind], p)
      end
    end
    for _, c in ipairs(d.calibrations or {}) do
      local k = table.concat({tostring(c.environment_id or c.env), tostring(c.device), tostring(c.model),
        tostring(c.precision), tostring(c.input), tostring(c.threads), tostring(c.memory_format)}, "|")
      if not seen_cal[k] then seen_cal[k] = true; D.calibrations[#D.calibrations + 1] = c end
    end
    for _, p in ipairs(d.plans or {}) do D.plans[#D.plans + 1] = p end
  end
  -- Attempts as rlx merge copies them: once by id, never beside the same run kept as a run.
  D.attempts = {}
  local seen_attempt = {}
  for _, d in ipairs(Ds) do
    for _, a in ipairs(d.attempts or {}) do
      if not seen_attempt[a.id] and not seen_run[a.id] then
        seen_attempt[a.id] = true
        D.attempts[#D.attempts + 1] = a
      end
    end
  end
  if next(dropped) then
    local kept = {}
    for _, r in ipairs(D.runs) do if not dropped[r.id] then kept[#kept + 1] = r end end
    D.runs = kept
  end
  M.name_environments(D.envs, D.runs, D.calibrations)
  table.sort(D.envs, function(a, b) return tostring(a.label) < tostring(b.label) end)
  M.sort_rows(D.runs)
  for _, r in ipairs(D.runs) do
    if r.status == "ok" then D.ok[#D.ok + 1] = r
    elseif r.status == "failed" then D.failed[#D.failed + 1] = r
    else D.running[#D.running + 1] = r end
  end
  D.groups = M.group(D.ok)
  D.varying = configs.varying(D.ok)
  return D
end

--- The source ({path, study}) holding a run: one of D.sources.
function M.source_of(D, run)
  return (D.source_by_run and D.source_by_run[run.id]) or {path = D.path, study = D.study}
end

--- The sources of D ({path, study, runs}): D.sources, or the one database it was loaded from.
function M.sources(D)
  return D.sources or {{path = D.path, study = D.study, runs = #D.runs}}
end

--- The source holding an environment (its first), for commands that name one database.
function M.env_source(D, env_id)
  return (D.source_by_env and D.source_by_env[env_id]) or {path = D.path, study = D.study}
end

--- Groups rows by their full configuration (in the rows' order): env key, model, precision, batch,
--- ranks, device, input, data, memory format, threads and protocol (rlx.studydb.configs), so runs of
--- two scales, or of two rank counts, never share a group. {key, env_key, env, kind, model, precision, batch, device, config
--- (rlx.studydb.configs.of), runs = {...}, labels = {...}}.
function M.group(rows)
  local groups, index = {}, {}
  for _, r in ipairs(rows) do
    local key = configs.key(r)
    local g = index[key]
    if not g then
      g = {key = key, env_key = r.env_key, env = r.env, env_label = r.env_label or r.env, emulated = r.emulated,
        kind = r.kind, model = r.model, precision = r.precision,
        batch = r.batch, device = r.device, config = configs.of(r), runs = {}, labels = {}}
      index[key] = g
      groups[#groups + 1] = g
    end
    g.runs[#g.runs + 1] = r
    g.labels[#g.labels + 1] = r.label
  end
  return groups, index
end

--- The DRAM roofline point of a run: the measured one when there is one, else the estimated one.
function M.point_of(D, run)
  local best
  for _, p in ipairs(D.points[run.id] or {}) do
    if p.level == "dram" and (not best or (best.source ~= "measured" and p.source == "measured")) then best = p end
  end
  return best
end

--- Derived counter values of a run by source ("ncu", "cupti", "perf"): {source = {name = value}}.
function M.derived_counters(D, run)
  local out = {}
  for _, c in ipairs(D.counters[run.id] or {}) do
    local source = c.source:match("^(.-):derived$")
    if source then
      out[source] = out[source] or {}
      out[source][c.name] = c.value
    end
  end
  return out
end

return M
