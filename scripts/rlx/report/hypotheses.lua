-- rlx.report.hypotheses: hypotheses declared in a study script and judged by the report against the
-- 95 % CIs of its rows (docs/report.md, "Hypotheses").
--
--   study:hypothesis{"AMP at least 2x over fp32 for ResNet-50 on cuda",
--     speedup = {precision = "amp", over = "fp32", model = "resnet50", device = "cuda"}, at_least = 2.0}
--   study:hypothesis{"VGG-16 is compute-bound everywhere", bound = {is = "compute", model = "vgg16"}}
--   study:hypothesis{"2 ranks train ResNet-50 at least 1.6x faster than 1",
--     ranks = {ranks = 2, over = 1, model = "resnet50"}, at_least = 1.6}
--
-- A hypothesis is one comparison the report's tables already make: a precision's speedup over
-- another (§6.1), a batch size's images/s over another's (§4.1), an environment's over another's
-- (§6.2), data-parallel ranks' images/s over fewer ranks' (§6.8: at the same batch per rank, or
-- with scaling = "strong" at the same global batch), or a roofline bound (§5). Ratios are judged by
-- their 95 % CI (rlx.stats.ratio_ci95, the tables' own): supported when every pair's CI lies on the
-- claimed side of the threshold, rejected when some pair's CI lies wholly on the other side, else
-- undecided (a CI across the threshold, or no CI: a side with one run). A bound is supported when
-- every point matching it has that bound, rejected when one has the other, undecided when one is
-- near the ridge.
local options = require("rlx.options")
local errors = require("rlx.errors")
local compute = require("rlx.report.compute")
local configs = require("rlx.studydb.configs")
local pairing = require("rlx.report.pairs")
local kit = require("rlx.kit")
local M = {}

-- The rows a hypothesis is about: each key narrows them (env: an environment label or a device kind).
local FILTER = {model = {type = "string"}, precision = {type = "string"}, batch = {type = "integer", min = 1},
  env = {type = "string"}, device = {type = "string", one_of = kit.DEVICE_KINDS}}

local function with_filter(extra)
  local spec = {}
  for k, v in pairs(FILTER) do spec[k] = v end
  for k, v in pairs(extra) do spec[k] = v end
  return spec
end

-- The comparisons, each an option table of its own: the field it varies and the filter of the rest.
M.KINDS = {
  speedup = {field = "precision", spec = with_filter{precision = {type = "string", required = true},
    over = {type = "string", required = true}}},
  batch = {field = "batch", spec = with_filter{batch = {type = "integer", min = 1, required = true},
    over = {type = "integer", min = 1, required = true}}},
  env = {field = "env", spec = with_filter{env = {type = "string", required = true},
    over = {type = "string", required = true}}},
  -- Global images/s at `ranks` data-parallel ranks over `over` ranks (issue 52): at the same batch
  -- per rank (scaling = "weak", the default) or the same global batch ("strong"); `batch` filters
  -- the `ranks` side's batch per rank.
  ranks = {field = "ranks", spec = with_filter{ranks = {type = "integer", min = 1, required = true},
    over = {type = "integer", min = 1, required = true}, scaling = {type = "string", one_of = {"weak", "strong"}}}},
  bound = {spec = with_filter{is = {type = "string", one_of = {"memory", "compute"}, required = true}}},
}

local SPEC = {text = {type = "string", required = true}, speedup = {type = "table"}, batch = {type = "table"},
  env = {type = "table"}, ranks = {type = "table"}, bound = {type = "table"}, at_least = {type = "number", min = 0},
  at_most = {type = "number", min = 0}}

--- Checks a hypothesis table ({"statement", <kind> = {...}, at_least =, at_most =}: the statement
--- first or as text =) and returns it normalised: {text, kind, test (the kind's table), at_least,
--- at_most}. fname names the caller in errors.
function M.check(fname, h)
  if type(h) ~= "table" then errors.raise(fname, "expected a hypothesis table {\"statement\", speedup = {...}, " ..
    "at_least = 2}, got " .. type(h)) end
  local copy = {}
  for k, v in pairs(h) do if k ~= 1 then copy[k] = v end end
  if h[1] ~= nil then
    if copy.text ~= nil then errors.raise(fname, "give the statement once: first, or as text =") end
    copy.text = h[1]
  end
  if #h > 1 then errors.raise(fname, "a hypothesis has one statement (its first value), got " .. #h .. " values") end
  if copy.text == nil then
    errors.raise(fname, "the statement is missing: give it first, {\"what you expect\", speedup = {...}, at_least = 2}")
  end
  local o = options.check(fname, copy, SPEC)
  if not o.text:find("%S") then errors.raise(fname, "the statement is blank: say what you expect") end
  local kinds = {}
  for k in pairs(M.KINDS) do if o[k] ~= nil then kinds[#kinds + 1] = k end end
  table.sort(kinds)
  if #kinds ~= 1 then
    errors.raise(fname, (#kinds == 0 and "say what to test: one of " or "test one thing, not " ..
      table.concat(kinds, " and ") .. ": one of ") .. "speedup = {precision =, over =}, batch = {batch =, over =}, " ..
      "env = {env =, over =}, bound = {is =}, ranks = {ranks =, over =}")
  end
  local kind = kinds[1]
  local test = options.check(fname .. ": option '" .. kind .. "'", o[kind], M.KINDS[kind].spec)
  -- A precision no run can have (fp8, a typo) was judged "untested"; a threshold of inf, which no
  -- ratio reaches, was accepted where NaN was refused (issue 56 item 7).
  local known = kit.PRECISIONS  -- what a database can hold: rlx's and the kit's fp16
  for _, k in ipairs({"precision", "over"}) do
    local p = test[k]
    if (k == "precision" or kind == "speedup") and p ~= nil and not known[p] then
      local names = {}
      for n in pairs(known) do names[#names + 1] = n end
      table.sort(names)
      errors.raise(fname, string.format("option '%s': %s = '%s' is no precision a run can have (one of %s)", kind, k,
        tostring(p), table.concat(names, ", ")))
    end
  end
  for _, k in ipairs({"at_least", "at_most"}) do
    if o[k] == math.huge then
      errors.raise(fname, string.format("%s = inf is no threshold: no measured ratio reaches it; give a finite " ..
        "number such as 2", k))
    end
  end
  if kind == "bound" then
    if o.at_least or o.at_most then errors.raise(fname, "a bound has no threshold: leave out at_least and at_most") end
  else
    if not (o.at_least or o.at_most) then
      errors.raise(fname, "a " .. (kind == "ranks" and "ranks comparison" or kind) .. " needs a threshold: at_least = " ..
        "x (the ratio's CI above x), at_most = x, or both")
    end
    if o.at_least and o.at_most and o.at_least > o.at_most then
      errors.raise(fname, string.format("at_least (%g) is above at_most (%g)", o.at_least, o.at_most))
    end
    if test.over == test[M.KINDS[kind].field] then
      errors.raise(fname, "option '" .. kind .. "' compares " .. tostring(test.over) .. " with itself: give two values")
    end
  end
  return {text = o.text, kind = kind, test = test, at_least = o.at_least, at_most = o.at_most}
end

-- The hypotheses declared per study object (weak keys: a closed study takes its list with it).
local declared = setmetatable({}, {__mode = "k"})

--- study:hypothesis's work: checks h and keeps it with the study for its report. Returns h checked.
function M.declare(study, h)
  local checked = M.check("study:hypothesis", h)
  declared[study] = declared[study] or {}
  table.insert(declared[study], checked)
  return checked
end

--- The hypotheses declared for a study (a copy), in order.
function M.of(study)
  local out = {}
  for i, h in ipairs(declared[study] or {}) do out[i] = h end
  return out
end

-- Whether a row (a D.groups entry) passes a test's filter; `skip` is the field the test varies.
local function matches(g, t, skip)
  if t.model and skip ~= "model" and g.model ~= t.model then return false end
  if t.precision and skip ~= "precision" and g.precision ~= t.precision then return false end
  if t.batch and skip ~= "batch" and g.batch ~= t.batch then return false end
  if t.env and skip ~= "env" and not (g.env_key == t.env or g.env == t.env or g.env_label == t.env or g.kind == t.env) then
    return false
  end
  if t.device and g.kind ~= t.device then return false end
  return true
end

-- Whether a row is on a side of an env comparison: its environment label (key) or device kind.
local function env_is(g, name) return g.env_key == name or g.env == name or g.env_label == name or g.kind == name end

-- The pairs of rows a ratio test compares: {a, b} with a the test's side, b the `over` side, equal in
-- every other configuration field (the workload across environments, as §6.2 pairs them; for ranks
-- all but the threads, and the batch per rank with strong scaling: rlx.report.pairs.ranks_partner,
-- §6.8's rule).
local function pairs_of(D, h)
  local t, field = h.test, M.KINDS[h.kind].field
  local out = {}
  if field == "ranks" then
    for _, a in ipairs(D.groups) do
      if pairing.ranks_of(a) == t.ranks and matches(a, t, "ranks") then
        local b = pairing.ranks_partner(D, a, t.over, t.scaling or "weak")
        if b then out[#out + 1] = {a = a, b = b} end
      end
    end
    return out
  end
  for _, a in ipairs(D.groups) do
    local a_side = field == "env" and env_is(a, t.env) or (field ~= "env" and a[field] == t[field])
    if a_side and matches(a, t, field) then
      for _, b in ipairs(D.groups) do
        local b_side = field == "env" and env_is(b, t.over) and not env_is(b, t.env) or
          (field ~= "env" and b[field] == t.over)
        local same
        if field == "env" then
          same = configs.workload_key(a.runs[1]) == configs.workload_key(b.runs[1])
        else
          same = configs.key(a.runs[1], {[field] = true}) == configs.key(b.runs[1], {[field] = true})
        end
        if b_side and same and b ~= a then out[#out + 1] = {a = a, b = b} end
      end
    end
  end
  return out
end

-- A ratio's verdict against the thresholds: "supported", "rejected" or "undecided".
local function ratio_verdict(r, h)
  if not r.low then return "undecided" end
  local lo, hi = h.at_least or -math.huge, h.at_most or math.huge
  if r.low >= lo and r.high <= hi then return "supported" end
  if r.high < lo or r.low > hi then return "rejected" end
  return "undecided"
end

-- The verdict of a hypothesis from its parts' verdicts.
local function overall(parts)
  if #parts == 0 then return "untested" end
  local all = true
  for _, p in ipairs(parts) do
    if p.verdict == "rejected" then return "rejected" end
    all = all and p.verdict == "supported"
  end
  return all and "supported" or "undecided"
end

--- Judges one checked hypothesis on loaded data D (rlx.studydb.data). Returns {verdict =
--- "supported" | "rejected" | "undecided" | "untested", parts = {{a, b (rows), ratio (rlx.stats
--- .ratio_ci95's), verdict} or {g (row), placed (rlx.report.compute.roofline's), verdict}}}.
function M.judge(D, h)
  local parts = {}
  if h.kind == "bound" then
    for _, g in ipairs(D.groups) do
      local r = matches(g, h.test) and compute.roofline(D, g)
      if r and r.bound then
        local c = compute.class_of(r)
        local v = c == "near the ridge" and "undecided" or (c == h.test.is .. "-bound" and "supported" or "rejected")
        parts[#parts + 1] = {g = g, placed = r, verdict = v}
      end
    end
  else
    for _, p in ipairs(pairs_of(D, h)) do
      local ta, tb = compute.throughput(p.a), compute.throughput(p.b)
      local r = pairing.ratio(ta.values, tb.values)
      if r then parts[#parts + 1] = {a = p.a, b = p.b, ratio = r, verdict = ratio_verdict(r, h)} end
    end
  end
  -- The environments a hypothesis that names none is about (every one whose rows pass its other
  -- filters) and those it could not be judged on: "every machine" judged on a subset names the
  -- ones left (issue 55).
  local all, judged, missing = {}, {}, {}
  if not h.test.env and h.kind ~= "env" then
    for _, p in ipairs(parts) do judged[(p.g or p.a).env_key] = true end
    for _, g in ipairs(D.groups) do
      if not all[g.env_key] and (not h.test.device or g.kind == h.test.device) then
        all[g.env_key] = true
        if not judged[g.env_key] and #parts > 0 then missing[#missing + 1] = g.env_key end
      end
    end
    table.sort(missing)
  end
  -- A ranks test on a study without data-parallel runs says so (the default study has none).
  local why
  if #parts == 0 and h.kind == "ranks" then
    local dp = false
    for _, g in ipairs(D.groups) do dp = dp or pairing.ranks_of(g) > 1 end
    if not dp then why = "The study has no data-parallel run (ranks > 1)" end
  end
  return {verdict = overall(parts), parts = parts, missing_envs = missing, why = why}
end

--- "at least 2" / "at most 1.5" / "between 1.2 and 2": a ratio test's threshold in words.
function M.threshold_text(h)
  if h.at_least and h.at_most then return string.format("between %g and %g", h.at_least, h.at_most) end
  if h.at_least then return string.format("at least %g", h.at_least) end
  return string.format("at most %g", h.at_most)
end

--- What a hypothesis compares, in words: "images/s of precision amp ÷ fp32 (model resnet50, device
--- cuda), at least 2".
function M.test_text(h)
  local t = h.test
  local what
  if h.kind == "speedup" then what = string.format("images/s in %s ÷ in %s", t.precision, t.over)
  elseif h.kind == "batch" then what = string.format("images/s at batch %d ÷ at batch %d", t.batch, t.over)
  elseif h.kind == "env" then what = string.format("images/s on %s ÷ on %s", t.env, t.over)
  elseif h.kind == "ranks" then
    what = string.format("global images/s on %d rank%s ÷ on %d rank%s at the same %s", t.ranks, t.ranks == 1 and "" or "s",
      t.over, t.over == 1 and "" or "s", t.scaling == "strong" and "global batch" or "batch per rank")
  else what = "the roofline bound is " .. t.is end
  local where = {}
  for _, k in ipairs({"model", "precision", "batch", "env", "device"}) do
    local varied = (h.kind == "speedup" and k == "precision") or (h.kind == "batch" and k == "batch") or
      (h.kind == "env" and k == "env")
    local key = (h.kind == "ranks" and k == "batch") and "batch per rank" or k
    if t[k] ~= nil and not varied then where[#where + 1] = key .. " " .. tostring(t[k]) end
  end
  return what .. (#where > 0 and (" (" .. table.concat(where, ", ") .. ")") or "") ..
    (h.kind ~= "bound" and (", " .. M.threshold_text(h)) or "")
end

return M
