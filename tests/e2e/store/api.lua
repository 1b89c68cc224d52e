-- api.lua: end-to-end checks of rlx.db, rlx.stats, rlx.env and rlx.study with a fake trainer
-- (the store must not depend on how fast or whether LibTorch trains). Prints "api ok".
local tmp = os.getenv("RLX_TEST_TMP") .. "/store-e2e-api"
os.execute("rm -rf '" .. tmp .. "'")

local function eq(a, b, what)
  if a ~= b then error(string.format("%s: expected %s, got %s", what, tostring(b), tostring(a)), 2) end
end
local function near(a, b, what)
  if type(a) ~= "number" or math.abs(a - b) > 1e-6 * math.max(1, math.abs(b)) then
    error(string.format("%s: expected %.9g, got %s", what, b, tostring(a)), 2)
  end
end
local function fails(fn, needle, what)
  local ok, err = pcall(fn)
  if ok then error(what .. ": expected an error", 2) end
  if not tostring(err):find(needle, 1, true) then
    error(string.format("%s: error %q does not contain %q", what, tostring(err), needle), 2)
  end
end

-- rlx.stats, worked by hand: {2,4,4,4,5,5,7,9} has mean 5, sample SD sqrt(32/7).
local xs = {2, 4, 4, 4, 5, 5, 7, 9}
eq(rlx.stats.mean(xs), 5, "mean")
near(rlx.stats.sd(xs), math.sqrt(32 / 7), "sd")
eq(rlx.stats.median(xs), 4.5, "median")
near(rlx.stats.percentile(xs, 25), 4, "p25")
near(rlx.stats.percentile(xs, 90), 7.6, "p90")         -- rank 1 + 7*0.9 = 7.3: 7 + 0.3*(9-7)
near(rlx.stats.cv(xs), math.sqrt(32 / 7) / 5, "cv")
local lo, hi, half = rlx.stats.ci95({1, 2, 3})          -- mean 2, sd 1, t(2) = 4.303
near(half, 4.303 / math.sqrt(3), "ci95 half")
near(lo, 2 - 4.303 / math.sqrt(3), "ci95 low")
near(hi, 2 + 4.303 / math.sqrt(3), "ci95 high")
eq(rlx.stats.sd({1}), nil, "sd of one value")
eq(rlx.stats.mean({}), nil, "mean of none")
fails(function() rlx.stats.mean("x") end, "rlx.stats.mean: expected an array of numbers, got string", "mean type")
fails(function() rlx.stats.sd({1, "2"}) end, "rlx.stats.sd: element 2 must be a number, got string", "sd element")
fails(function() rlx.stats.percentile(xs, 101) end, "p must be a number in [0, 100]", "percentile p")
local rows = {
  {env = "a", model = "m", precision = "fp32", batch = 2, images_per_s = 10, gflops = 1},
  {env = "a", model = "m", precision = "fp32", batch = 2, images_per_s = 12, gflops = 2},
  {env = "a", model = "m", precision = "fp32", batch = 2, images_per_s = 14, gflops = 3},
  {env = "a", model = "m", precision = "fp32", batch = 4, images_per_s = 20},
}
local t2 = rlx.stats.mean_sd(rows, "images_per_s")
eq(#t2, 2, "mean_sd groups")
eq(t2[1].text, "12.0 ± 2.0", "mean_sd text")
eq(t2[1].n, 3, "mean_sd n")
eq(t2[2].text, "20.0", "mean_sd single")
local t3 = rlx.stats.mean_sd(rows, {"images_per_s", "gflops"}, {by = {"batch"}, digits = 2})
eq(t3[1].gflops, "2.00 ± 1.00", "mean_sd two fields")
eq(t3[1].images_per_s_mean, 12, "mean_sd field mean")
fails(function() rlx.stats.mean_sd(rows, "x", {bye = 1}) end,
  "rlx.stats.mean_sd: unknown option 'bye' (valid options: by, digits)", "mean_sd unknown")

-- rlx.db: bound parameters, hostile strings, wrong types, errors naming the file.
local conn = rlx.db.open(tmp .. "/db/plain.db", {create_directories = true})
eq(conn:schema_version(), rlx.db.schema_version, "schema version")
local evil = "x'); DROP TABLE runs; --"
conn:exec("INSERT INTO studies (name, created_at) VALUES (?, ?)", evil, "now")
eq(conn:query("SELECT name FROM studies WHERE name = ?", evil)[1].name, evil, "hostile string")
eq(#conn:query("SELECT name FROM sqlite_master WHERE name = 'runs'"), 1, "runs table survives")
eq(conn:exec("DELETE FROM studies WHERE name = ?", evil), 1, "exec returns changes")
local bound = conn:query("SELECT ? AS a, ? AS b, ? AS c", 1, nil, "z")[1]
eq(bound.a, 1, "bound integer"); eq(bound.b, nil, "bound nil"); eq(bound.c, "z", "bound string")
fails(function() conn:query("SELECT ?", 1, 2) end, "the statement has 1 parameter(s) ('?'), 2 value(s) given", "param count")
fails(function() conn:query("SELECT 1; SELECT 2") end, "one statement per call", "two statements")
fails(function() rlx.db.open(42) end, "rlx.db.open: expected a database path (a string), got number", "open type")
fails(function() rlx.db.open(tmp .. "/x.db", {readonly = true, bogus = 1}) end,
  "rlx.db.open: unknown option 'bogus' (valid options: busy_timeout_ms, create, create_directories, migrate_to, " ..
  "readonly, snapshot)", "open unknown")
fails(function() rlx.db.open(tmp .. "/x.db", {readonly = "yes"}) end,
  "rlx.db.open: option 'readonly' must be true or false, got \"yes\"", "open opt type")
fails(function() rlx.db.open(tmp .. "/missing.db", {readonly = true}) end, "no database at '" .. tmp .. "/missing.db'", "missing")
local f = io.open(tmp .. "/db/text.db", "w"); f:write(string.rep("not sqlite\n", 20)); f:close()
fails(function() rlx.db.open(tmp .. "/db/text.db") end, "'" .. tmp .. "/db/text.db' is not a usable SQLite database", "corrupt")
local ro = rlx.db.open(tmp .. "/db/plain.db", {readonly = true})
fails(function() ro:exec("DELETE FROM studies") end, "readonly", "read-only write")
ro:close()
fails(function() ro:query("SELECT 1") end, "conn:query: the connection is closed", "closed")
eq(conn:transaction(function(a) conn:exec("INSERT INTO studies VALUES ('t1', 'x')"); return a + 1 end, 1), 2, "tx result")
fails(function() conn:transaction(function() conn:exec("INSERT INTO studies VALUES ('t2', 'x')"); error("boom") end) end,
  "boom", "tx error")
eq(#conn:query("SELECT * FROM studies WHERE name = 't2'"), 0, "tx rolled back")
local _, obj = pcall(conn.transaction, conn, function() error({exit_code = 130, message = "interrupted"}, 0) end)
eq(type(obj), "table", "error object passes through"); eq(obj.exit_code, 130, "exit code kept")
eq(conn:in_transaction(), false, "no transaction left open")
eq(rlx.db.decode(rlx.db.encode({a = {1, 2}})).a[2], 2, "json round trip")
eq(#rlx.db.new_id(), 32, "run id length")
fails(function() rlx.db.decode("{oops") end, "rlx.json.decode: invalid JSON at byte 2", "decode")
-- One codec behind both names (issue 16): the same text, compact and indented, and the same values.
local sample = {b = {1, 2.5, "x", true}, a = {nested = {}}, c = "é\n"}
eq(rlx.db.encode(sample), rlx.json.encode(sample), "db.encode = json.encode")
eq(rlx.db.encode, rlx.json.encode, "db.encode is json.encode")
eq(rlx.db.decode, rlx.json.decode, "db.decode is json.decode")
eq(rlx.db.encode(sample), '{"a":{"nested":{}},"b":[1,2.5,"x",true],"c":"é\\n"}', "encoded text")
eq(rlx.json.encode(rlx.db.decode(rlx.json.encode(sample))), rlx.json.encode(sample), "decode round trip")
fails(function() rlx.db.encode({f = print}) end, "rlx.json.encode: cannot convert a function to data", "encode function")
fails(function() conn:merge_from(42) end, "conn:merge_from", "merge_from type")
fails(function() conn:merge_from(conn:path()) end, "into itself", "merge into itself")
fails(function() conn:merge_from(tmp .. "/db/text.db") end, "is not a usable SQLite database", "merge corrupt")
fails(function() conn:transaction(42) end, "conn:transaction: expected a function, got number", "transaction type")
local old = rlx.db.open(tmp .. "/db/v1.db", {migrate_to = 1})
eq(old:schema_version(), 1, "old schema")
old:exec("INSERT INTO studies VALUES ('kept', 'then')")
old:close()
local migrated = rlx.db.open(tmp .. "/db/v1.db")
eq(migrated:schema_version(), rlx.db.schema_version, "migrated")
eq(migrated:first("SELECT name FROM studies").name, "kept", "row kept")
migrated:close()
fails(function() rlx.db.open(tmp .. "/db/vnext.db", {migrate_to = rlx.db.schema_version + 1}) end,
  "rlx.db.open: option 'migrate_to' must be at most " .. rlx.db.schema_version .. " (this rlx's schema version)",
  "migrate_to too high")

-- rlx.env
local env = rlx.env.capture{label = "e2e", zone = "europe-west4-a"}
eq(env.label, "e2e", "env label"); eq(env.cloud_zone, "europe-west4-a", "zone override")
eq(env.id, rlx.env.id(env), "env id stable")
assert(env.cpu_threads >= 1 and env.memory_bytes > 0 and env.luajit, "env basics")
assert(rlx.env.markdown(env):find("| CPU model |", 1, true), "markdown table")
fails(function() rlx.env.capture{lable = "x"} end,
  "rlx.env.capture: unknown option 'lable' (valid options: instance_type, label, zone)", "env unknown")
fails(function() rlx.env.capture{label = 3} end, "rlx.env.capture: option 'label' must be a string, got 3", "env type")
fails(function() rlx.env.markdown("x") end, "rlx.env.markdown: expected an environment table, got string", "markdown type")
fails(function() rlx.env.id(nil) end, "rlx.env.id: expected an environment table, got nil", "id type")
fails(function() rlx.env.capture{label = "a b"} end, "option 'label' must be letters, digits", "env label chars")

-- rlx.study with a fake trainer: 2 models x 2 batches x 2 repeats = 8 runs of 3 samples.
fails(function() rlx.study{} end, "rlx.study: option 'name' is required (a string)", "study missing name")
fails(function() rlx.study{name = "a/b"} end, "option 'name' must be a non-empty name without '/'", "study name")
fails(function() rlx.study{name = "x", dbb = "y"} end, "rlx.study: unknown option 'dbb'", "study unknown")
local study = rlx.study{name = "fake", db = tmp .. "/fake.db", label = "e2e"}
local calls = 0
local function trainer(o)
  calls = calls + 1
  if o.model == "bad" then return {ok = false, error = "CUDA out of memory (fake)"} end
  return {ok = true, hook = print, images_per_s = 10 * o.batch, seconds = 0.3, iter_s = {mean = 0.1, sd = 0.01, median = 0.1,
    min = 0.09, max = 0.11, p5 = 0.09, p95 = 0.11}, samples = {0.09, 0.1, 0.11}, threads = 1,
    counters = {source = "perf", values = {task_clock_ms = 5, cycles = false}, units = {task_clock_ms = "ms"},
      derived = {flops = 2e9}}}
end
local sweep = {models = {"m1", "m2"}, batch = {2, 4}, repeats = 2, iters = 3, warmup = 0, trainer = trainer, quiet = true}
local s1 = study:sweep(sweep)
eq(s1.ran, 8, "first sweep ran"); eq(s1.ok, 8, "first sweep ok"); eq(calls, 8, "trainer calls")
eq(s1.labels[1], "e2e_m1_fp32_bs2_run1", "label format"); eq(s1.labels[8], "e2e_m2_fp32_bs4_run2", "stable order")
local s2 = study:sweep(sweep)
eq(s2.ran, 0, "rerun runs nothing"); eq(s2.skipped, 8, "rerun skips all"); eq(calls, 8, "no new calls")
eq(#study:runs{status = "ok"}, 8, "8 ok runs")
eq(study.db:first("SELECT count(*) AS n FROM samples").n, 24, "8 x 3 samples")
eq(study.db:first("SELECT count(*) AS n FROM counters").n, 16, "two numeric counters per run")
local one = study:runs{model = "m2", batch = 4, run = 2, samples = true}
eq(#one, 1, "filter"); eq(one[1].images_per_s, 40, "images/s"); eq(one[1].iter_s.p95, 0.11, "iter p95")
eq(#one[1].samples, 3, "samples"); eq(one[1].env, "e2e", "env label"); eq(one[1].config.iters, 3, "config kept")
local s3 = study:sweep{models = {"m1"}, batch = {2}, repeats = 1, iters = 3, warmup = 0, trainer = trainer, quiet = true,
  force = true}
eq(s3.ran, 1, "force redoes"); eq(#study:runs{}, 8, "force replaces, never duplicates")
local s4 = study:sweep{models = {"bad"}, batch = {2}, trainer = trainer, quiet = true}
eq(s4.failed, 1, "failure stored")
local bad = study:runs{status = "failed"}
eq(#bad, 1, "one failed run"); eq(bad[1].error, "CUDA out of memory (fake)", "error kept")
local s5 = study:sweep{models = {"bad"}, batch = {2}, trainer = function() error("trainer exploded") end, quiet = true}
eq(s5.failed, 1, "raised error becomes a failed run")
assert(study:runs{status = "failed"}[1].error:find("trainer exploded", 1, true), "raised error text")
fails(function()
  study:sweep{models = {"m3"}, batch = {2}, quiet = true,
    trainer = function() error({exit_code = 130, message = "rlx: interrupted"}, 0) end}
end, "", "interrupt re-raised")
local _, e2 = pcall(study.sweep, study, {models = {"m3"}, batch = {2}, quiet = true,
  trainer = function() error({exit_code = 130, message = "rlx: interrupted"}, 0) end})
eq(type(e2) == "table" and e2.exit_code, 130, "Ctrl-C object re-raised")
eq(#study:runs{model = "m3"}, 0, "interrupted run discarded")
fails(function() study:sweep{models = {"m1"}, bacth = 2} end, "study:sweep: unknown option 'bacth'", "sweep unknown")
fails(function() study:sweep{batch = 2} end, "study:sweep: option 'models' is required", "sweep missing")
fails(function() study:sweep{models = {"m1"}, batch = 0} end, "option 'batch' must be an integer >= 1, got 0", "sweep batch")
fails(function() study:store_run("x", {}) end, "study:store_run: expected a config table, got string", "store_run type")
fails(function() study:store_run({batch = 2}, {}) end, "study:store_run: config.model must be a model name", "store_run model")
fails(function() study:store_run({model = "m"}, {ok = true}, {runn = 1}) end, "study:store_run: unknown option 'runn'",
  "store_run unknown")
fails(function() study:points{levle = "dram"} end, "study:points: unknown option 'levle'", "points unknown")
fails(function() study:peaks(1) end, "study:peaks: expected a device name (string), got number", "peaks type")
fails(function() study:store_peaks("x") end, "study:store_peaks: expected a peaks table, got string", "store_peaks type")
fails(function() study:runs{model = 3} end, "study:runs: option 'model' must be a string, got 3", "runs type")
fails(function() study:runs{status = "great"} end, "option 'status' must be one of crashed, failed, ok, running", "runs status")

-- Peaks and counters through the API other modules use.
eq(study:peaks("cpu"), nil, "no peaks yet")
eq(study:store_peaks({dram_gbps = 21.5, fp32_gflops = 150, spread = {dram_gbps = 0.03}, isa = "avx2"}, {device = "cpu"}), 2,
  "peaks stored")
local p = study:peaks("cpu")
eq(p.dram_gbps, 21.5, "dram peak"); eq(p.spread.dram_gbps, 0.03, "spread"); eq(p.units.fp32_gflops, "GFLOP/s", "unit")
fails(function() study:store_peaks({isa = "avx2"}) end, "the table has no numeric fields", "peaks empty")
fails(function() study:store_peaks({x = 1}, {devise = "cpu"}) end, "study:store_peaks: unknown option 'devise'", "peaks unknown")
eq(study:attach_counters("e2e_m1_fp32_bs2_run1", {source = "ncu", values = {dram__bytes_read = 1e6},
  units = {dram__bytes_read = "byte"}}), 1, "attach counters")
eq(study:attach_counters("e2e_m1_fp32_bs2_run1", {{name = "x", value = 2, unit = "u"}}), 1, "attach array")
fails(function() study:attach_counters("nope", {}) end, "no run labelled 'nope' in study 'fake'", "attach missing")
fails(function() study:attach_counters(1, {}) end, "expected a run label (string), got number", "attach type")

-- Roofline points: the sweep hands each ok result to rlx.roofline.for_run with the stored peaks.
if type(rlx.roofline) == "table" and rlx.roofline.for_run then
  local function counted(o)
    local r = trainer(o)
    -- 1e9 FLOP and 1e8 bytes over 3 iterations of 0.1 s: AI 10, 3.333 GFLOP/s, under the
    -- 21.5 GB/s x 10 = 215 GFLOP/s memory roof and the 150 GFLOP/s compute roof.
    r.counters = {source = "fake", values = {}, derived = {flops = 1e9, dram_bytes = 1e8}}
    r.iters = 3
    return r
  end
  study:sweep{models = {"roof"}, batch = {2}, iters = 3, warmup = 0, trainer = counted, quiet = true}
  local pts = study:points{model = "roof"}
  eq(#pts, 1, "one roofline point")
  eq(pts[1].level, "dram", "point level"); eq(pts[1].source, "measured", "point source")
  near(pts[1].ai, 10, "point ai"); near(pts[1].gflops, 1e9 / 0.3 / 1e9, "point gflops")
  near(pts[1].attainable_gflops, 150, "attainable = compute roof"); eq(pts[1].bound, "compute", "bound")
end

-- Dry run lists the matrix and skips what is done, with an estimate from the stored runs.
local before = calls
rlx.flags.dry_run = true
local d = study:sweep{models = {"m1", "m9"}, batch = {2}, repeats = 1, iters = 3, warmup = 0, trainer = trainer}
rlx.flags.dry_run = false
eq(d.to_run, 1, "dry run to run"); eq(d.skipped, 1, "dry run skipped"); eq(calls, before, "dry run trains nothing")
assert(d.estimate_s == nil, "no estimate without comparable runs")
rlx.flags.dry_run = true
local d2 = study:sweep{models = {"m1"}, batch = {2, 8}, repeats = 2, iters = 3, warmup = 0, force = true}
rlx.flags.dry_run = false
eq(d2.to_run, 4, "forced dry run"); eq(d2.skipped, 0, "forced dry run skips nothing")
assert(type(d2.estimate_s) == "number" and d2.estimate_s >= 0, "estimate from the stored m1 bs2 runs")
eq(d2.unestimated, 0, "bs8 estimated from bs2 by images")
eq(study.db:integrity_check(), "ok", "integrity")

-- Sweep order (issue 15): interleaved by default, grouped on request, random from a stored seed;
-- each run records the order and its position. The trainer sees the runs in that order.
local ordered = rlx.study{name = "order", db = tmp .. "/order.db", label = "o"}
local seen = {}
local function recorder(o) seen[#seen + 1] = o.label; return trainer(o) end
local grid = {models = {"m1", "m2"}, batch = {2}, repeats = 2, iters = 3, warmup = 0, trainer = recorder, quiet = true}
local function labels(plan) local t = {} for i, it in ipairs(plan) do t[i] = it.label end return table.concat(t, " ") end
eq(labels(ordered:plan(grid)), "o_m1_fp32_bs2_run1 o_m2_fp32_bs2_run1 o_m1_fp32_bs2_run2 o_m2_fp32_bs2_run2", "interleaved plan")
grid.order = "grouped"
eq(labels(ordered:plan(grid)), "o_m1_fp32_bs2_run1 o_m1_fp32_bs2_run2 o_m2_fp32_bs2_run1 o_m2_fp32_bs2_run2", "grouped plan")
grid.order = "random"; grid.order_seed = 7
local r7 = labels(ordered:plan(grid))
eq(labels(ordered:plan(grid)), r7, "the same seed gives the same order")
-- Park-Miller from x = 7 + 1 = 8 over the grouped list (1 m1r1, 2 m1r2, 3 m2r1, 4 m2r2):
-- x = 8*48271 = 386168, j = 386168 mod 4 + 1 = 1: swap 4<->1 (4 2 3 1);
-- x = 386168*48271 mod (2^31-1) = 1460846352, mod 3 = 0 (digit sum 39), j = 1: swap 3<->1 (3 2 4 1);
-- x = 1460846352*48271 mod (2^31-1) = 1741224500, even, j = 1: swap 2<->1 (2 3 4 1).
eq(r7, "o_m1_fp32_bs2_run2 o_m2_fp32_bs2_run1 o_m2_fp32_bs2_run2 o_m1_fp32_bs2_run1", "seed 7 order")
local sr = ordered:sweep(grid)
eq(labels({{label = seen[1]}, {label = seen[2]}, {label = seen[3]}, {label = seen[4]}}), r7, "trained in the plan's order")
eq(sr.ran, 4, "random sweep ran all")
local stored = ordered:runs{}
for _, r in ipairs(stored) do
  eq(r.sweep_order, "random", "order stored"); eq(r.sweep_seed, 7, "seed stored")
end
local pos = {}
for _, r in ipairs(stored) do pos[r.label] = r.position end
eq(pos["o_m1_fp32_bs2_run2"], 1, "position 1"); eq(pos["o_m1_fp32_bs2_run1"], 4, "position 4")
grid.order_seed = nil
eq(labels(ordered:plan(grid)), r7, "a rerun without a seed reuses the stored one")
fails(function() ordered:plan{models = {"m1"}, order = "sorted"} end,
  "option 'order' must be one of grouped, interleaved, random", "bad order")
fails(function() ordered:plan{models = {"m1"}, order_seed = 3} end,
  "option 'order_seed' applies to order = \"random\" only", "seed without random")
-- Interleaved resume: kill nothing, but a rerun after a partial sweep runs only what is missing.
local inter = rlx.study{name = "inter", db = tmp .. "/order.db", label = "o"}
seen = {}
grid.order = nil
local part = inter:sweep{models = {"m1", "m2"}, batch = {2}, repeats = 2, iters = 3, warmup = 0, trainer = recorder,
  quiet = true, only = {"o_m2_fp32_bs2_run1", "o_m1_fp32_bs2_run2"}}
eq(part.ran, 2, "only: ran the shard"); eq(part.not_in_shard, 2, "only: the rest is not in this shard")
eq(table.concat(seen, " "), "o_m2_fp32_bs2_run1 o_m1_fp32_bs2_run2", "only: in the plan's order")
local rest = inter:sweep(grid)
eq(rest.ran, 2, "rerun runs the missing two"); eq(rest.skipped, 2, "and skips the shard's")
fails(function() inter:sweep{models = {"m1"}, trainer = recorder, only = {"o_m9_fp32_bs32_run1"}} end,
  "option 'only' names 'o_m9_fp32_bs32_run1', which is not in the plan", "only unknown label")

-- The run columns filled from the result and the process (issue 16's RunRecord).
local cols = rlx.study{name = "cols", db = tmp .. "/order.db", label = "o"}
cols:sweep{models = {"m1"}, batch = {2}, iters = 3, warmup = 0, quiet = true, trainer = function(o)
  local r = trainer(o)
  r.memory_format = "channels_last"; r.stability = {stable = false, drift = 0.25, cv = 0.5}
  r.counter_iters = 2; r.counted_iter_s = 0.4; r.pin_memory = true
  return r
end}
local c1 = cols:runs{}[1]
eq(c1.memory_format, "channels_last", "memory_format"); eq(c1.stable, 0, "stable"); eq(c1.drift, 0.25, "drift")
eq(c1.cv, 0.5, "cv"); eq(c1.counter_iters, 2, "counter_iters"); eq(c1.counted_iter_s, 0.4, "counted_iter_s")
eq(c1.pin_memory, 1, "pin_memory"); eq(c1.sweep_order, "interleaved", "default order"); eq(c1.position, 1, "position")
assert(type(c1.pid) == "number" and c1.pid > 0, "pid")

-- study:summary and study:ensure_peaks (moved out of experiments/all.lua).
local sum = inter:summary{quiet = true}
eq(sum.runs, 4, "summary runs"); eq(sum.ok, 4, "summary ok"); eq(sum.failed, 0, "summary failed")
assert(sum.line:find("database " .. tmp .. "/order.db: 4 runs stored (4 ok); seed 000's files: rlx export", 1, true), sum.line)
local measure, measured = rlx.peaks.measure, 0
rlx.peaks.measure = function(o) measured = measured + 1; return {device = o.device, dram_gbps = 12.5, fp32_gflops = 80} end
local pk = inter:ensure_peaks("cpu", {quiet = true})
eq(measured, 1, "measured once"); eq(pk.dram_gbps, 12.5, "ensure_peaks stores")
eq(inter:ensure_peaks("cpu", {quiet = true}).fp32_gflops, 80, "stored peaks returned"); eq(measured, 1, "not measured again")
rlx.peaks.measure = function() error("no counters here") end
eq(inter:ensure_peaks("cuda", {quiet = true}), nil, "a failed measurement is a warning")
rlx.peaks.measure = measure
fails(function() inter:ensure_peaks(1) end, "study:ensure_peaks: expected a device kind", "ensure_peaks type")
fails(function() inter:summary{quite = true} end, "study:summary: unknown option 'quite'", "summary unknown")

-- rlx.memory.available from a fake /proc and /sys: MemAvailable 2,000,000 kB = 2.048 GB; the
-- cgroup v2 "job" allows 1 GB with 0.4 GB in use (0.6 GB left), its parent has no limit ("max").
local root = tmp .. "/memroot"
local function put(path, text)
  os.execute("mkdir -p '" .. (root .. path):match("^(.*)/[^/]*$") .. "'")
  local fh = io.open(root .. path, "w"); fh:write(text); fh:close()
end
put("/proc/meminfo", "MemTotal: 4000000 kB\nMemFree: 100 kB\nMemAvailable: 2000000 kB\n")
put("/proc/self/cgroup", "0::/job\n")
put("/sys/fs/cgroup/memory.max", "max\n"); put("/sys/fs/cgroup/memory.current", "900000000\n")
put("/sys/fs/cgroup/job/memory.max", "1000000000\n"); put("/sys/fs/cgroup/job/memory.current", "400000000\n")
local mem = rlx.memory.available{root = root}
eq(mem.mem_available_bytes, 2048000000, "MemAvailable"); eq(mem.cgroup, "v2", "cgroup v2")
eq(mem.available_bytes, 600000000, "cgroup room"); eq(mem.cgroup_limit_bytes, 1000000000, "cgroup limit")
-- cgroup v1: limit 3 GB, 0.5 GB used: 2.5 GB of room, more than MemAvailable.
put("/proc/self/cgroup", "4:memory:/slurm/job1\n0::/\n")
put("/sys/fs/cgroup/memory/slurm/job1/memory.limit_in_bytes", "3000000000\n")
put("/sys/fs/cgroup/memory/slurm/job1/memory.usage_in_bytes", "500000000\n")
mem = rlx.memory.available{root = root}
eq(mem.cgroup, "v1", "cgroup v1"); eq(mem.available_bytes, 2048000000, "MemAvailable is smaller")

-- A CPU run whose memory estimate does not fit is refused before training and stored as failed.
local memstudy = rlx.study{name = "mem", db = tmp .. "/mem.db", label = "o"}
local trained = 0
local rm = memstudy:sweep{models = {"resnet18"}, batch = {2}, input = 32, classes = 10, iters = 1, warmup = 0,
  quiet = true, trainer = function(o) trained = trained + 1; return trainer(o) end,
  memory_available = function() return {available_bytes = 1e6, cgroup = "v2", cgroup_limit_bytes = 2e6,
    cgroup_usage_bytes = 1e6} end}
eq(trained, 0, "refused before training"); eq(rm.failed, 1, "refusal stored as failed")
local refused = memstudy:runs{}[1]
assert(refused.error:find("not enough memory: resnet18 at batch 2 needs about ", 1, true) and
  refused.error:find("but 0.00 GB is available (cgroup v2 limit 0.00 GB, 0.00 GB in use); not trained", 1, true),
  refused.error)
local rm2 = memstudy:sweep{models = {"resnet18"}, batch = {2}, input = 32, classes = 10, iters = 1, warmup = 0,
  quiet = true, trainer = function(o) trained = trained + 1; return trainer(o) end, memory_check = false,
  memory_available = function() return {available_bytes = 1e6} end}
eq(trained, 1, "memory_check = false trains anyway"); eq(rm2.ok, 1, "and stores it")
print("api ok")
