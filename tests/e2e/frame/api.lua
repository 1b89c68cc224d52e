-- api.lua: the frame API (scripts/rlx/frame/init.lua) on six hand-written runs; every expected value
-- below is worked out by hand from these rows. Prints "frame api ok" or fails at the first
-- mismatch, naming it.
local function fail(what, got, want)
  error(string.format("%s: got %s, want %s", what, rlx.inspect(got), rlx.inspect(want)), 2)
end
local function eq(what, got, want)
  if type(want) == "number" and type(got) == "number" then
    if math.abs(got - want) > 1e-12 * math.max(1, math.abs(want)) then fail(what, got, want) end
  elseif type(want) == "table" then
    if type(got) ~= "table" then fail(what, got, want) end
    for k, v in pairs(want) do eq(what .. "." .. tostring(k), got[k], v) end
    for k in pairs(got) do
      if want[k] == nil then fail(what .. " has an extra key " .. tostring(k), got, want) end
    end
  elseif got ~= want then
    fail(what, got, want)
  end
end
local function raises(what, pattern, f, ...)
  local ok, err = pcall(f, ...)
  if ok then fail(what .. " did not raise", nil, pattern) end
  local text = rlx.errors.text(err)
  if not text:find(pattern, 1, true) then fail(what .. " message", text, pattern) end
end

local runs = rlx.frame{
  {model = "resnet18", batch = 2, run = 1, images_per_s = 20.25, status = "ok"},
  {model = "resnet18", batch = 2, run = 2, images_per_s = 20.75, status = "ok"},
  {model = "resnet18", batch = 4, run = 1, images_per_s = 40.5, status = "ok"},
  {model = "vgg16", batch = 2, run = 1, images_per_s = 5, status = "ok"},
  {model = "vgg16", batch = 2, run = 2, images_per_s = 7, status = "ok"},
  {model = "vgg16", batch = 4, run = 1, status = "failed", error = "oom"},
}

-- A frame is the same array: # and ipairs as before, methods through the metatable.
eq("#runs", #runs, 6)
local n = 0
for _ in ipairs(runs) do n = n + 1 end
eq("ipairs", n, 6)
eq("is", rlx.frame.is(runs), true)
eq("plain table is no frame", rlx.frame.is({}), false)

-- where: equality, lists, functions of the cell and of the row; missing never matches.
eq("where model", #runs:where{model = "vgg16"}, 3)
eq("where two keys", #runs:where{model = "vgg16", batch = 2}, 2)
eq("where list", #runs:where{batch = {4, 8}}, 2)
eq("where cell function", #runs:where{images_per_s = function(v) return v > 20 end}, 3)
eq("where row function", #runs:where(function(r) return r.run == 2 end), 2)
eq("where string vs number", #runs:where{batch = "2"}, 0)
eq("where keeps the records", runs:where{error = "oom"}[1], runs[6])
eq("where leaves the input", #runs, 6)

-- select: new records, the given order kept for printing.
local sel = runs:select{"model", "images_per_s"}
eq("select record", sel[1], {model = "resnet18", images_per_s = 20.25})
eq("select columns", sel:columns(), {"model", "images_per_s"})
eq("select varargs", runs:select("batch", "run")[6], {batch = 4, run = 1})

-- sort: ascending, descending, several keys, stable, missing last.
local function col(frame, c)
  local out = {}
  for i, r in ipairs(frame) do out[i] = r[c] == nil and "nil" or r[c] end
  return out
end
eq("sort asc", col(runs:sort("images_per_s"), "images_per_s"), {5, 7, 20.25, 20.75, 40.5, "nil"})
eq("sort desc", col(runs:sort("images_per_s", "desc"), "images_per_s"), {40.5, 20.75, 20.25, 7, 5, "nil"})
eq("sort two keys", col(runs:sort{"batch", "model"}, "run"), {1, 2, 1, 2, 1, 1})
eq("sort stable", col(runs:sort("model"), "images_per_s"), {20.25, 20.75, 40.5, 5, 7, "nil"})
eq("sort function", col(runs:sort(function(a, b) return a.run > b.run end), "run"), {2, 2, 1, 1, 1, 1})

-- head and tail.
eq("head", col(runs:head(2), "images_per_s"), {20.25, 20.75})
eq("head default", #runs:head(), 6)
eq("tail", col(runs:tail(2), "model"), {"vgg16", "vgg16"})
eq("head 0", #runs:head(0), 0)

-- group_by/agg. resnet18: 20.25, 20.75, 40.5: mean 81.5 / 3 = 27.1666...; vgg16: 5, 7 (the failed
-- run has no images_per_s): mean 6, sd sqrt(((5-6)^2 + (7-6)^2) / 1) = sqrt(2), cv sqrt(2) / 6.
local g = runs:group_by("model"):agg{images_per_s = {"mean", "sd", "cv", "median", "min", "max", "count", "sum"},
  n = "count"}
eq("agg rows", #g, 2)
eq("agg resnet18", g[1], {model = "resnet18", images_per_s_mean = 81.5 / 3,
  images_per_s_sd = math.sqrt(((20.25 - 81.5 / 3) ^ 2 + (20.75 - 81.5 / 3) ^ 2 + (40.5 - 81.5 / 3) ^ 2) / 2),
  images_per_s_cv = math.sqrt(((20.25 - 81.5 / 3) ^ 2 + (20.75 - 81.5 / 3) ^ 2 + (40.5 - 81.5 / 3) ^ 2) / 2) / (81.5 / 3),
  images_per_s_median = 20.75, images_per_s_min = 20.25, images_per_s_max = 40.5, images_per_s_count = 3,
  images_per_s_sum = 81.5, n = 3})
eq("agg vgg16", g[2], {model = "vgg16", images_per_s_mean = 6, images_per_s_sd = math.sqrt(2),
  images_per_s_cv = math.sqrt(2) / 6, images_per_s_median = 6, images_per_s_min = 5, images_per_s_max = 7,
  images_per_s_count = 2, images_per_s_sum = 12, n = 3})
eq("agg columns", g:columns(), {"model", "images_per_s_mean", "images_per_s_sd", "images_per_s_cv",
  "images_per_s_median", "images_per_s_min", "images_per_s_max", "images_per_s_count", "images_per_s_sum", "n"})
-- A single statistic keeps the column's name; groups sort by their values.
local g2 = runs:group_by{"batch", "model"}:agg{images_per_s = "mean"}
eq("agg two keys", g2, {{batch = 2, model = "resnet18", images_per_s = 20.5}, {batch = 2, model = "vgg16", images_per_s = 6},
  {batch = 4, model = "resnet18", images_per_s = 40.5}, {batch = 4, model = "vgg16"}})
eq("agg over all rows", runs:agg{images_per_s = "max", n = "count", error = "count"}, {{images_per_s = 40.5, n = 6, error = 1}})
eq("min of text", runs:agg{model = "min"}[1].model, "resnet18")
eq("sd of one value is nil", runs:where{batch = 4, model = "resnet18"}:agg{images_per_s = "sd"}[1].images_per_s, nil)

-- pivot: batch down, model across; a cell with several rows needs agg.
local p = g2:pivot{rows = "batch", cols = "model", value = "images_per_s"}
eq("pivot", p, {{batch = 2, resnet18 = 20.5, vgg16 = 6}, {batch = 4, resnet18 = 40.5}})
eq("pivot columns", p:columns(), {"batch", "resnet18", "vgg16"})
eq("pivot caption", rlx.frame.info(p).caption, "images_per_s: batch down, model across")
local pm = runs:pivot{rows = "model", cols = "batch", value = "images_per_s", agg = "mean"}
eq("pivot agg", pm, {{model = "resnet18", ["2"] = 20.5, ["4"] = 40.5}, {model = "vgg16", ["2"] = 6}})
raises("pivot duplicates", "rows:pivot: 2 values of 'images_per_s' for model = resnet18, batch = 2: pass agg = \"mean\"",
  runs.pivot, runs, {rows = "model", cols = "batch", value = "images_per_s"})

-- col and columns.
eq("col", runs:col("images_per_s"), {20.25, 20.75, 40.5, 5, 7})
eq("columns", runs:columns(), {"model", "batch", "run", "status", "images_per_s", "error"})

-- Errors name the bad column and the valid ones.
local valid = "(valid columns: batch, error, images_per_s, model, run, status)"
raises("where unknown", "rows:where: unknown column 'modle' " .. valid, runs.where, runs, {modle = "x"})
raises("select unknown", "rows:select: unknown column 'ips' " .. valid, runs.select, runs, {"model", "ips"})
raises("sort unknown", "rows:sort: unknown column 'speed' " .. valid, runs.sort, runs, "speed")
raises("sort order", 'rows:sort: the order (argument 2) must be "asc" or "desc", got down', runs.sort, runs, "run", "down")
raises("group_by unknown", "rows:group_by: unknown column 'precision' " .. valid, runs.group_by, runs, {"model", "precision"})
raises("agg unknown column", "rows:agg: unknown column 'ips' " .. valid,
  function() return runs:group_by("model"):agg{ips = "mean"} end)
raises("agg unknown statistic",
  "rows:agg: unknown statistic 'avg' for column 'images_per_s' (valid: count, cv, max, mean, median, min, sd, sum)",
  function() return runs:group_by("model"):agg{images_per_s = "avg"} end)
raises("agg on text", 'rows:agg: column \'model\' holds text ("resnet18"): mean needs numbers', runs.agg, runs, {model = "mean"})
raises("pivot unknown", "rows:pivot: unknown column 'modell' " .. valid, runs.pivot, runs,
  {rows = "batch", cols = "modell", value = "images_per_s"})
raises("col unknown", "rows:col: unknown column 'x' " .. valid, runs.col, runs, "x")
raises("plot unknown", "rows:plot: unknown column 'batchsize' " .. valid, runs.plot, runs,
  {x = "batchsize", y = "images_per_s", out = "x.png"})
raises("dot call", "rows:where: called with '.' instead of ':'", runs.where, {model = "x"})
raises("head count", "rows:head: the row count (argument 1) must be an integer >= 0, got -1", runs.head, runs, -1)
raises("frame of non-records", "rlx.frame: row 2 must be a table of column = value, got number", rlx.frame, {{a = 1}, 5})

-- to_csv: full precision, quoting, missing empty, columns in print order; written atomically.
local dir = os.getenv("RLX_TEST_TMP") .. "/frame-api"
os.execute("rm -rf '" .. dir .. "' && mkdir -p '" .. dir .. "'")
local csv = rlx.frame({{name = "a,b", x = 0.1, n = 3}, {name = 'say "hi"', x = 1 / 3}}, {"name", "x", "n"})
eq("to_csv returns the path", csv:to_csv(dir .. "/t.csv"), dir .. "/t.csv")
local f = assert(io.open(dir .. "/t.csv"))
eq("csv text", f:read("*a"), 'name,x,n\n"a,b",0.1,3\n"say ""hi""",0.33333333333333331,\n')
f:close()
raises("to_csv missing dir", "rows:to_csv: cannot write '" .. dir .. "/no/t.csv': the directory", csv.to_csv, csv,
  dir .. "/no/t.csv")

-- Query results are frames in SELECT order.
local db = rlx.db.open(dir .. "/q.db")
local q = db:sql("SELECT 2 AS b, 1 AS a, NULL AS c")
eq("query is a frame", rlx.frame.is(q), true)
eq("query columns", q:columns(), {"b", "a", "c"})
eq("query empty keeps columns", db:query("SELECT 1 AS x WHERE 0"):columns(), {"x"})
db:close()
print("frame api ok")
