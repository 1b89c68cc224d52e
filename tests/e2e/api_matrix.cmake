# End-to-end tests that complete the five-case matrix of every public Lua function (normal case,
# wrong type, missing key, unknown key, C++-exception / native-error path) where the component
# files (tests/e2e/<component>.cmake and their scripts) leave a case out. Names start "api: ".
#
# check.sh matches each regex against the whole output with Perl (`^`/`$` are its start and end,
# `.` also matches a newline, so escape literal dots). ${NL} matches the newline between and after
# lines.
set(AM ${CMAKE_SOURCE_DIR}/tests/e2e/api_matrix)
set(NL "[[:space:]]")
# An error raised by `rlx -e CODE`: the whole line, and nothing after it (an rlx refusal prints no
# traceback unless RLX_TRACEBACK=1; issue 35 item 11).
set(CL "^\\(command line\\):1: ")
set(TB "${NL}$")
function(rlx_api_matrix_err name code re)
  rlx_e2e(NAME "api: ${name}" EXIT 1 ARGS -e "${code}" STDERR "${CL}${re}${TB}")
endfunction()
function(rlx_api_matrix_ok name code re)
  rlx_e2e(NAME "api: ${name}" ARGS -e "${code}" STDOUT "^${re}${NL}$")
endfunction()
# Lua prefixes: a scratch file under RLX_TEST_TMP, and a study in its own database.
# fresh(path) removes a database left by an earlier run (with its -wal and -shm) and returns path.
set(TMP "local t = os.getenv('RLX_TEST_TMP') local function fresh(p) for _, x in ipairs({'', '-wal', '-shm'}) do os.remove(p .. x) end return p end ")
# api_study(tag): ST opens the study 'api' (environment label 'api') in a new database of its own.
macro(api_study tag)
  set(ST "${TMP} local s = rlx.study{name = 'api', label = 'api', db = fresh(t .. '/api_study_${tag}.db')} ")
endmacro()

# ---- rlx (init.lua), rlx.json, rlx.options ------------------------------------------------------
rlx_api_matrix_ok("rlx.inspect nests, sorts keys and cuts at depth"
  "print(rlx.inspect({3, 1, b = 2, a = {x = 1}}), rlx.inspect({a = {b = 1}}, {depth = 1}))"
  "\\{3, 1, a = \\{x = 1\\}, b = 2\\}\t\\{a = \\{\\.\\.\\.\\}\\}")
rlx_api_matrix_ok("rlx.fail inside pcall is an error value"
  "local ok, e = pcall(rlx.fail, 2, 'usage: x') print(ok, e.exit_code, e.message)" "false\t2\tusage: x")
rlx_api_matrix_ok("rlx.json.encode with an indent"
  "print(rlx.json.encode({a = {1, 2}}, 2))" "\\{${NL}  \"a\": \\[${NL}    1,${NL}    2${NL}  \\]${NL}\\}")
rlx_api_matrix_err("rlx.json.encode of a cycle (C++ exception path)" "local c = {} c.c = c rlx.json.encode(c)"
  "rlx\\.json\\.encode: table nested too deeply \\(or contains a cycle\\)")
rlx_api_matrix_err("rlx.json.decode wrong type" "rlx.json.decode(42)"
  "rlx\\.json\\.decode: argument 1 must be a string, got number")
rlx_api_matrix_ok("rlx.options.check fills defaults and lists"
  "local o = rlx.options.check('f', {a = 2, c = 'x'}, {a = {type = 'integer', min = 1}, b = {type = 'string', default = 'd'}, c = {type = 'string_list'}}) print(o.a, o.b, type(o.c), o.c[1])"
  "2\td\ttable\tx")
rlx_api_matrix_err("rlx.options.check wrong type" "rlx.options.check('f', {a = 'x'}, {a = {type = 'integer'}})"
  "f: option 'a' must be an integer, got \"x\"")
rlx_api_matrix_err("rlx.options.check missing key" "rlx.options.check('f', {}, {a = {type = 'integer', required = true}})"
  "f: option 'a' is required \\(an integer\\)")
rlx_api_matrix_err("rlx.options.check not a table" "rlx.options.check('f', 5, {})"
  "f: expected a table of options, got number")
rlx_api_matrix_err("rlx.options.check one_of" "rlx.options.check('f', {p = 'z'}, {p = {type = 'string', one_of = {'x', 'y'}}})"
  "f: option 'p' must be one of x, y, got \"z\"")
rlx_api_matrix_err("rlx.options.check int_list element" "rlx.options.check('f', {b = {2, 0}}, {b = {type = 'int_list', min = 1}})"
  "f: option 'b' element 2 must be an integer >= 1, got 0")
rlx_api_matrix_err("rlx.errors.raise is located at the caller" "rlx.errors.raise('f', 'broken, do x')"
  "f: broken, do x")
rlx_api_matrix_err("rlx.errors.expect names the argument" "rlx.errors.expect('f', 5, 'string|nil', 'a path (a string)')"
  "f: expected a path \\(a string\\), got number")

# ---- rlx.model ----------------------------------------------------------------------------------
rlx_api_matrix_err("rlx.model.summary not a table" "rlx.model.summary(42)"
  "rlx\\.model\\.summary: expected a table of options, got number")
rlx_api_matrix_err("rlx.model.max_batch not a table" "rlx.model.max_batch('resnet18')"
  "rlx\\.model\\.max_batch: expected a table of options, got string")
rlx_api_matrix_err("rlx.model.max_batch model of the wrong type" "rlx.model.max_batch{model = 5, memory_gib = 1}"
  "rlx\\.model\\.max_batch: option 'model' must be a model name or a model table, got a number")

# ---- rlx.train ----------------------------------------------------------------------------------
rlx_api_matrix_err("rlx.train.run not a table" "rlx.train.run('resnet18')"
  "rlx\\.train: expected a table of options, got string \\(e\\.g\\. rlx\\.train\\{model = \"resnet18\", batch = 32\\}\\)")
rlx_api_matrix_err("rlx.train label of the wrong type" "rlx.train{model = 'resnet18', label = 5}"
  "rlx\\.train: option 'label' must be a string, got 5")
rlx_api_matrix_err("rlx.train unknown counter group (C++ exception path)"
  "rlx.train{model = 'resnet18', batch = 2, iters = 1, warmup = 0, input = 32, classes = 10, counters = {'cycels'}}"
  "rlx\\.train: option 'counters': unknown cpu counter 'cycels' \\(valid: cycles, instructions, [a-z_, ]+\\)")
rlx_api_matrix_ok("rlx.train.summary_line of a real run"
  "local r = rlx.train{model = 'resnet18', batch = 2, iters = 1, warmup = 0, input = 32, classes = 10, threads = 1} print(rlx.train.summary_line(r))"
  "resnet18 cpu fp32 batch 2: [0-9.]+ img/s \\(median [0-9.]+ s/iter, data wait [0-9.]+ s, 1 threads, channels_last, loss [0-9.]+ -> [0-9.]+\\)(\\x3b contended \\([0-9.]+ other cores, CPU share [0-9]+ %\\))?")
rlx_api_matrix_ok("rlx.train.summary_line of given results"
  "print(rlx.train.summary_line({ok = true, model = 'm', device = 'cpu', precision = 'fp32', batch = 2, images_per_s = 5.5, iter_s = {median = 0.375}, data_wait_s = 0, threads = 1, loss_first = 3.5, loss_last = 3.25, label = 'L'})) print(rlx.train.summary_line({ok = false, model = 'm', device = 'cpu', precision = 'amp', batch = 2, error = 'no GPU'}))"
  "m cpu fp32 batch 2: 5\\.5 img/s \\(median 0\\.3750 s/iter, data wait 0\\.000 s, 1 threads, loss 3\\.500 -> 3\\.250\\) \\[L\\]${NL}m cpu amp batch 2: FAILED: no GPU")

# ---- rlx.db and connections ---------------------------------------------------------------------
rlx_api_matrix_ok("rlx.db.hash and rlx.db.now"
  "print(rlx.db.hash({a = 1, b = {2}}) == rlx.db.hash({b = {2}, a = 1}), rlx.db.hash({a = 1}):match('^[0-9a-f]+$') ~= nil, #rlx.db.hash({}), rlx.db.now():match('^%d%d%d%d%-%d%d%-%d%dT%d%d:%d%d:%d%dZ$') ~= nil)"
  "true\ttrue\t16\ttrue")
rlx_api_matrix_err("rlx.db.hash of a function" "rlx.db.hash({f = print})" "rlx\\.db\\.hash: cannot convert a function to data")
rlx_api_matrix_err("rlx.db.decode wrong type" "rlx.db.decode(42)" "rlx\\.json\\.decode: argument 1 must be a string, got number")
rlx_api_matrix_err("rlx.db.open options not a table" "${TMP} rlx.db.open(t .. '/api_db_opts.db', 'ro')"
  "rlx\\.db\\.open: expected a table of options, got string")
rlx_api_matrix_err("rlx.db.open negative busy timeout" "${TMP} rlx.db.open(t .. '/api_db_opts.db', {busy_timeout_ms = -1})"
  "rlx\\.db\\.open: option 'busy_timeout_ms' must be an integer >= 0, got -1")
rlx_api_matrix_err("rlx.db.open create=false on a missing file (C++ exception path)"
  "${TMP} rlx.db.open(t .. '/api_db_missing.db', {create = false})"
  "rlx\\.db\\.open: no database at '.*/api_db_missing\\.db' \\(check the path\\)")
rlx_api_matrix_ok("conn:begin, rollback, commit, in_transaction, readonly"
  "${TMP} local c = rlx.db.open(fresh(t .. '/api_db_tx.db')) c:begin() local a = c:in_transaction() c:exec('INSERT INTO studies VALUES (?, ?)', 'tx', 'x') c:rollback() local n1 = c:first('SELECT count(*) AS n FROM studies').n c:begin() c:exec('INSERT INTO studies VALUES (?, ?)', 'tx', 'x') c:commit() local ro = rlx.db.open(t .. '/api_db_tx.db', {readonly = true}) print(a, c:in_transaction(), n1, ro:first('SELECT count(*) AS n FROM studies').n, c:readonly(), ro:readonly())"
  "true\tfalse\t0\t1\tfalse\ttrue")
rlx_api_matrix_err("conn:query bad SQL (C++ exception path)" "${TMP} rlx.db.open(t .. '/api_db_sql.db'):query('SELEC 1')"
  "conn:query: bad SQL for database '.*/api_db_sql\\.db': near \"SELEC\": syntax error")
rlx_api_matrix_err("conn:commit without a transaction (C++ exception path)" "${TMP} rlx.db.open(t .. '/api_db_commit.db'):commit()"
  "conn:commit: database '.*/api_db_commit\\.db': cannot commit - no transaction is active")
rlx_api_matrix_err("conn:begin inside a transaction" "${TMP} local c = rlx.db.open(t .. '/api_db_begin.db') c:begin() c:begin()"
  "conn:begin: database '.*/api_db_begin\\.db': cannot start a transaction within a transaction")
rlx_api_matrix_err("conn:begin on a closed connection" "${TMP} local c = rlx.db.open(t .. '/api_db_closed.db') c:close() c:begin()"
  "conn:begin: the connection is closed. open the database again with rlx\\.db\\.open")
rlx_api_matrix_ok("conn:merge_from copies a study"
  "${TMP} local a = rlx.db.open(fresh(t .. '/api_db_m1.db')) a:exec('INSERT INTO studies VALUES (?, ?)', 's1', 'x') a:close() local b = rlx.db.open(fresh(t .. '/api_db_m2.db')) local n = b:merge_from(t .. '/api_db_m1.db') print(n.studies, n.runs, b:first('SELECT name FROM studies').name)"
  "1\t0\ts1")
rlx_api_matrix_err("conn:merge_from of a missing file (C++ exception path)"
  "${TMP} rlx.db.open(t .. '/api_db_merge.db'):merge_from(t .. '/api_db_nonexistent.db')"
  "conn:merge_from: no database at '.*/api_db_nonexistent\\.db' \\(check the path\\)")

# ---- rlx.env ------------------------------------------------------------------------------------
rlx_api_matrix_err("rlx.env.capture not a table" "rlx.env.capture('lab')"
  "rlx\\.env\\.capture: expected a table of options, got string")
rlx_api_matrix_err("rlx.env.capture zone of the wrong type" "rlx.env.capture{zone = 5}"
  "rlx\\.env\\.capture: option 'zone' must be a string, got 5")

# ---- rlx.stats ----------------------------------------------------------------------------------
rlx_e2e(NAME "api: rlx.stats summary, t975 and argument checks" ARGS run ${AM}/stats.lua STDOUT
  "^4\t2\\.5\t2\\.5\t1\t4\t1\\.2910 0\\.4460 4\\.5540 1\\.15 3\\.85 0\\.5164${NL}4\\.303\t2\\.042\t1\\.9624\tnil${NL}[^ ]*stats\\.lua:[0-9]+: rlx\\.stats\\.median: expected an array of numbers, got string${NL}[^ ]*stats\\.lua:[0-9]+: rlx\\.stats\\.percentile: expected an array of numbers, got string${NL}[^ ]*stats\\.lua:[0-9]+: rlx\\.stats\\.percentile: p must be a number in \\[0, 100\\], got nil${NL}[^ ]*stats\\.lua:[0-9]+: rlx\\.stats\\.cv: element 2 must be a number, got string${NL}[^ ]*stats\\.lua:[0-9]+: rlx\\.stats\\.ci95: expected an array of numbers, got nil${NL}[^ ]*stats\\.lua:[0-9]+: rlx\\.stats\\.summary: expected an array of numbers, got number${NL}[^ ]*stats\\.lua:[0-9]+: rlx\\.stats\\.mean_sd: expected an array of rows, got string${NL}[^ ]*stats\\.lua:[0-9]+: rlx\\.stats\\.mean_sd: expected a field name or an array of field names, got number${NL}[^ ]*stats\\.lua:[0-9]+: rlx\\.stats\\.mean_sd: option 'digits' must be an integer >= 0, got \"x\"${NL}[^ ]*stats\\.lua:[0-9]+: rlx\\.stats\\.mean_sd: option 'by' must be a string or an array of strings, got 3${NL}[^ ]*stats\\.lua:[0-9]+: rlx\\.stats\\.mean_sd: expected a table of options, got string${NL}$")

# rlx.stats.steady_state, the trainer's verdict worked by hand. {1, 1, 1}: three samples, no verdict.
# {1.0, 1.1, 0.9, 1.0}: halves 1.05 and 0.95, drift -0.0952, variances 0.005 each, Welch t = -0.1 /
# sqrt(0.0025 + 0.0025) = -1.4142 at 2 df, inside t975(2) = 4.303: steady; cv = 0.08165 / 1 (beyond a
# cv rule of 0.05: not steady). {1, 1, 1.2, 1.2}: constant halves that differ always count: drift 0.2.
rlx_api_matrix_ok("rlx.stats.steady_state verdicts"
  "local function show(v) io.write(string.format('%s %s %.4f %.4f %.4f %g %g|', tostring(v.judged), tostring(v.stable), v.drift, v.cv, v.drift_t, v.max_drift, v.max_cv)) end show(rlx.stats.steady_state{1, 1, 1}) show(rlx.stats.steady_state{1.0, 1.1, 0.9, 1.0}) show(rlx.stats.steady_state{1, 1, 1.2, 1.2}) show(rlx.stats.steady_state({1.0, 1.1, 0.9, 1.0}, {cv = 0.05})) print()"
  "false false 0\\.0000 0\\.0000 0\\.0000 0\\.05 0\\.25\\|true true -0\\.0952 0\\.0816 -1\\.4142 0\\.05 0\\.25\\|true false 0\\.2000 0\\.1050 0\\.0000 0\\.05 0\\.25\\|true false -0\\.0952 0\\.0816 -1\\.4142 0\\.05 0\\.05\\|")
rlx_api_matrix_err("rlx.stats.steady_state of a string sample" "rlx.stats.steady_state{1, 'a'}"
  "rlx\\.stats\\.steady_state: element 2 must be a number, got string")
rlx_api_matrix_err("rlx.stats.steady_state unknown rule key" "rlx.stats.steady_state({1, 2}, {x = 1})"
  "rlx\\.stats\\.steady_state: unknown option 'x' \\(valid options: cv, drift\\)")

# ---- rlx.peaks ----------------------------------------------------------------------------------
rlx_api_matrix_ok("rlx.peaks.normalize_name"
  "print(rlx.peaks.normalize_name('Tesla V100-SXM2-16GB'), rlx.peaks.normalize_name('NVIDIA  GeForce RTX_4090'))"
  "v100 sxm2 16gb\trtx 4090")
rlx_api_matrix_err("rlx.peaks.summarize of no rates (C++ exception path)" "rlx.peaks.summarize({})"
  "rlx\\.peaks\\.summarize: expected a non-empty array of numbers")
rlx_api_matrix_err("rlx.peaks.measure not a table" "rlx.peaks.measure('cpu')"
  "rlx\\.peaks\\.measure: expected a table of options, got string")
rlx_api_matrix_err("rlx.peaks.measure unknown device" "rlx.peaks.measure{device = 'tpu'}"
  "rlx\\.peaks\\.measure: option 'device' must be one of cpu, cuda, got \"tpu\"")
rlx_api_matrix_err("rlx.peaks.define not a table" "rlx.peaks.define('A100')"
  "rlx\\.peaks\\.define: expected a table of options, got string")
rlx_api_matrix_err("rlx.peaks.define missing name" "rlx.peaks.define{source = 'y', fp32_gflops = 1}"
  "rlx\\.peaks\\.define: option 'name' is required \\(a string\\)")

# ---- rlx.roofline -------------------------------------------------------------------------------
rlx_api_matrix_ok("rlx.roofline.compute_roof, memory_roof, precision_of"
  "local a, af = rlx.roofline.compute_roof({fp32_gflops = 10, gemm_fp32_gflops = 20}, 'fp32') local b, bf = rlx.roofline.compute_roof({gemm_fp32_gflops = 20}, 'fp32', 'gemm_fp32_gflops') local c, cf = rlx.roofline.compute_roof({peaks = {fp32_gflops = 1}}, 'bf16') local m, mf = rlx.roofline.memory_roof({l2_gbps = 5}, 'l2') print(a, af, b, bf, c, cf, m, mf, rlx.roofline.precision_of('amp'), rlx.roofline.precision_of('bf16'), rlx.roofline.precision_of(nil))"
  "10000000000\tfp32_gflops\t20000000000\tgemm_fp32_gflops\tnil\tbf16_tensor_gflops\t5000000000\tl2_gbps\tfp16\tbf16\tfp32")
rlx_api_matrix_err("rlx.roofline.point not a table" "rlx.roofline.point('x')"
  "rlx\\.roofline\\.point: expected a table of options, got string")
rlx_api_matrix_err("rlx.roofline.for_run options not a table" "rlx.roofline.for_run({}, 'x')"
  "rlx\\.roofline\\.for_run: expected a table of options, got string")
rlx_api_matrix_err("rlx.roofline.attainable missing argument" "rlx.roofline.attainable(1, 2)"
  "rlx\\.roofline\\.attainable: argument 3 must be a number, got no value")

# ---- rlx.counters -------------------------------------------------------------------------------
rlx_api_matrix_err("rlx.counters.import_ncu missing path" "rlx.counters.import_ncu()"
  "rlx\\.counters\\.import_ncu: argument 1 must be a string, got nil")
rlx_api_matrix_err("rlx.counters.list not a table" "rlx.counters.list('cpu')"
  "rlx\\.counters\\.list: expected a table of options, got string")
rlx_api_matrix_err("rlx.counters.available unknown device (C++ exception path)" "rlx.counters.available('gpu')"
  "rlx\\.counters\\.available: unknown device 'gpu' \\(use \"cpu\", \"cuda\" or \"cuda:N\"\\)")
rlx_api_matrix_err("rlx.counters.measure options not a table" "rlx.counters.measure(function() end, 'x')"
  "rlx\\.counters\\.measure: expected a table of options, got string")
rlx_api_matrix_err("rlx.counters.measure iters below 1" "rlx.counters.measure(function() end, {iters = 0})"
  "rlx\\.counters\\.measure: option 'iters' must be an integer >= 1, got 0")
rlx_api_matrix_err("rlx.counters.measure unknown device (C++ exception path)" "rlx.counters.measure(function() end, {device = 'tpu'})"
  "rlx\\.counters\\.measure: option 'device' is invalid: unknown device 'tpu' \\(use \"cpu\", \"cuda\" or \"cuda:N\"\\)")
rlx_api_matrix_ok("rlx.counters.format_list"
  "local l = rlx.counters.format_list(rlx.counters.list{device = 'cpu'}) print(#l > 2, l[1]:match('^device cpu %(perf_event%): ') ~= nil, l[2]:match('^  [ny][eo]s? +cycles +hardware ') ~= nil)"
  "true\ttrue\ttrue")

# ---- rlx.plot -----------------------------------------------------------------------------------
rlx_api_matrix_err("rlx.plot.line missing out" "rlx.plot.line{series = {{x = {1}, y = {1}}}}"
  "rlx\\.plot\\.line: option 'out' is required \\(a string\\)")
rlx_api_matrix_err("rlx.plot.line missing series" "rlx.plot.line{out = 'x.png'}"
  "rlx\\.plot\\.line: option 'series' is required \\(an array of \\{label=, x=, y=, sd=\\}\\)")
rlx_api_matrix_err("rlx.plot.line unknown option" "rlx.plot.line{series = {{x = {1}, y = {1}}}, out = 'x.png', colour = 1}"
  "rlx\\.plot\\.line: unknown option 'colour' \\(valid options: dpi, grid, height, kind, legend, out, series, subtitle, title, width, xlabel, xmax, xmin, xscale, xticks, ylabel, ymax, ymin, yscale, yticks\\)")
rlx_api_matrix_err("rlx.plot.variability unknown option" "rlx.plot.variability{groups = {{label = 'a', values = {1}}}, out = 'x.png', bogus = 1}"
  "rlx\\.plot\\.variability: unknown option 'bogus' \\(valid options: dpi, grid, groups, height, legend, out, subtitle, title, width, xlabel, xmax, xmin, ylabel, ymax, ymin, yscale\\)")
rlx_api_matrix_err("rlx.plot.throughput missing out" "rlx.plot.throughput{series = {{x = {1}, y = {1}}}}"
  "rlx\\.plot\\.throughput: option 'out' is required \\(a string\\)")
rlx_api_matrix_err("rlx.plot.roofline unwritable out (C++ exception path)"
  "rlx.plot.roofline{points = {{ai = 1, gflops = 1}}, peak_gflops = 10, peak_gbps = 1, out = '/nonexistent-dir/r.png'}"
  "rlx\\.plot\\.roofline: cannot write figure '/nonexistent-dir/r\\.png': the directory '/nonexistent-dir' does not exist")
rlx_api_matrix_err("rlx.plot.ai_vs_batch points of the wrong type" "rlx.plot.ai_vs_batch{points = 5, out = 'x.png'}"
  "rlx\\.plot\\.ai_vs_batch: option 'points' must be a table, got 5")
rlx_api_matrix_err("rlx.plot.ai_vs_batch unknown option" "rlx.plot.ai_vs_batch{points = {}, out = 'x.png', bogus = 1}"
  "rlx\\.plot\\.ai_vs_batch: unknown option 'bogus' \\(valid options: by, dpi, grid, height, legend, model, out, points, ridges, subtitle, title, width, xlabel, xmax, xmin, ylabel, ymax, ymin, yscale\\)")
rlx_api_matrix_err("rlx.plot.pixel wrong type" "rlx.plot.pixel('x.png', 'a', 1)"
  "rlx\\.plot\\.pixel: argument 2 must be a number, got string")
rlx_api_matrix_err("rlx.plot.pixel outside the image (C++ exception path)"
  "${TMP} rlx.plot.line{series = {{x = {1, 2}, y = {1, 2}}}, out = t .. '/api_pixel.png', width = 200, height = 150} rlx.plot.pixel(t .. '/api_pixel.png', 500, 1)"
  "rlx\\.plot\\.pixel: \\(500, 1\\) is outside the 200x150 image")
rlx_api_matrix_ok("rlx.plot.ticks linear"
  "local l = {} for i, x in ipairs(rlx.plot.ticks{min = 0, max = 10}) do l[i] = x.label end print(table.concat(l, ' '))"
  "0 2 4 6 8 10")
rlx_api_matrix_err("rlx.plot.ticks wrong type" "rlx.plot.ticks{min = 'a', max = 10}"
  "rlx\\.plot\\.ticks: option 'min' must be a number, got \"a\"")
rlx_api_matrix_err("rlx.plot.ticks missing max" "rlx.plot.ticks{min = 1}"
  "rlx\\.plot\\.ticks: option 'max' is required \\(a number\\)")
rlx_api_matrix_err("rlx.plot.ticks unknown option" "rlx.plot.ticks{min = 1, max = 10, bogus = 1}"
  "rlx\\.plot\\.ticks: unknown option 'bogus' \\(valid options: max, min, scale\\)")
rlx_api_matrix_err("rlx.plot.ticks unknown scale" "rlx.plot.ticks{scale = 'ln', min = 1, max = 10}"
  "rlx\\.plot\\.ticks: option 'scale' must be one of linear, log, got \"ln\"")
rlx_api_matrix_ok("rlx.plot.related_arrows"
  "local a = rlx.plot.related_arrows({{model = 'm', batch = 2, precision = 'fp32'}, {model = 'm', batch = 2, precision = 'bf16'}, {model = 'm', batch = 4, precision = 'bf16'}}) print(#a, a[1].from, a[1].to)"
  "1\t1\t2")
rlx_api_matrix_ok("rlx.plot.mkdir creates parents"
  "${TMP} os.execute('rm -rf ' .. t .. '/api_mkdir') print(rlx.plot.mkdir(t .. '/api_mkdir/a/b'), io.open(t .. '/api_mkdir/a/b/f', 'w') ~= nil)"
  "true\ttrue")
rlx_api_matrix_err("rlx.plot.mkdir wrong type" "rlx.plot.mkdir(5)" "rlx\\.plot\\.mkdir: argument 1 must be a string, got number")
rlx_api_matrix_err("rlx.plot.mkdir over a file (C++ exception path)" "rlx.plot.mkdir('CMakeLists.txt/figs')"
  "rlx\\.plot\\.mkdir: cannot create directory 'CMakeLists\\.txt/figs': Not a directory")

# ---- rlx.study and study methods ----------------------------------------------------------------
rlx_api_matrix_err("rlx.study name of the wrong type" "rlx.study{name = 3}" "rlx\\.study: option 'name' must be a string, got 3")
rlx_api_matrix_err("rlx.study not a table" "rlx.study('cpu')" "rlx\\.study: expected a table of options, got string")
rlx_api_matrix_err("rlx.study on a file that is not a database (C++ exception path)" "rlx.study{name = 'x', db = 'CMakeLists.txt'}"
  "rlx\\.db\\.open: 'CMakeLists\\.txt' is not a usable SQLite database \\(file is not a database\\). is it the right file, or was it damaged\\? Restore it or start a new database")
rlx_api_matrix_ok("rlx.study.label" "print(rlx.study.label('gcp-a100', 'resnet50', 'amp', 64, 3))" "gcp-a100_resnet50_amp_bs64_run3")
api_study(1)
rlx_api_matrix_ok("study:plan lists the matrix in order"
  "${ST} local p = s:plan{models = {'a', 'b'}, batch = {1, 2}, repeats = 2} print(#p, p[1].label, p[2].label, p[3].label, p[8].label, p[1].done, p[1].run, p[1].config.batch)"
  "8\tapi_a_fp32_bs1_run1\tapi_a_fp32_bs2_run1\tapi_b_fp32_bs1_run1\tapi_b_fp32_bs2_run2\tfalse\t1\t1")
api_study(2)
rlx_api_matrix_err("study:plan wrong type" "${ST} s:plan{models = 5}"
  "study:plan: option 'models' must be a string or an array of strings, got 5")
api_study(3)
rlx_api_matrix_err("study:plan missing models" "${ST} s:plan{batch = 2}" "study:plan: option 'models' is required \\(a string or an array of strings\\)")
api_study(4)
rlx_api_matrix_err("study:plan unknown option" "${ST} s:plan{models = 'a', bacth = 2}"
  "study:plan: unknown option 'bacth' \\(valid options: accept_ci, after_s, batch, budget_s, calibration, classes, .*, weight_decay, workers\\)")
api_study(5)
rlx_api_matrix_ok("study:sweep with rlx.train stores the run and its complexity"
  "${ST} local x = s:sweep{models = 'resnet18', batch = 2, iters = 1, warmup = 0, input = 32, classes = 10, threads = 1, quiet = true} local r = s:runs{}[1] print(x.ran, x.ok, x.failed, r.label, r.status, r.images_per_s > 0, r.params)"
  "1\t1\t0\tapi_resnet18_fp32_bs2_run1\tok\ttrue\t11181642")
api_study(6)
rlx_e2e(NAME "api: study:sweep stores a run rlx.train rejects (C++ exception path)" ARGS -e
  "${ST} local x = s:sweep{models = 'resnet99', batch = 2, iters = 1, warmup = 0, quiet = true} print(x.ran, x.failed, s:runs{status = 'failed'}[1].error)"
  STDOUT "^1\t1\t\\(command line\\):1: rlx\\.train: option 'model': unknown model 'resnet99' \\(built-in models: resnet18, resnet34, resnet50, vgg16, mobilenet_v2, alexnet. or pass a Lua model table\\)${NL}$"
  STDERR "^rlx\\.study: api_resnet99_fp32_bs2_run1 failed: \\(command line\\):1: rlx\\.train: option 'model': unknown model 'resnet99'")
api_study(7)
rlx_api_matrix_err("study:sweep device of the wrong type" "${ST} s:sweep{models = 'm', device = 5}"
  "study:sweep: option 'device' must be a string, got 5")
api_study(8)
rlx_api_matrix_err("study:sweep trainer of the wrong type" "${ST} s:sweep{models = 'm', trainer = 5}"
  "study:sweep: option 'trainer' must be a function, got 5")
api_study(9)
rlx_api_matrix_err("study:runs unknown option" "${ST} s:runs{modle = 'x'}"
  "study:runs: unknown option 'modle' \\(valid options: all_studies, batch, device, env, label, model, precision, run, samples, status\\)")
api_study(10)
rlx_api_matrix_err("study:store_run result of the wrong type" "${ST} s:store_run({model = 'm'}, 5)"
  "study:store_run: expected a result table, got number")
api_study(11)
rlx_api_matrix_err("study:store_run run below 1" "${ST} s:store_run({model = 'm'}, {ok = true}, {run = 0})"
  "study:store_run: option 'run' must be an integer >= 1, got 0")
api_study(12)
rlx_api_matrix_err("study:attach_counters unknown option" "${ST} s:attach_counters('x', {}, {sourc = 'ncu'})"
  "study:attach_counters: unknown option 'sourc' \\(valid options: source\\)")
api_study(13)
rlx_api_matrix_err("study:attach_counters counters of the wrong type" "${ST} s:attach_counters('x', 5)"
  "study:attach_counters: expected a counters table, got number")
api_study(14)
rlx_api_matrix_err("study:points source of the wrong value" "${ST} s:points{source = 'guess'}"
  "study:points: option 'source' must be one of estimated, measured, got \"guess\"")
api_study(15)
rlx_api_matrix_err("study:points level of the wrong type" "${ST} s:points{level = 3}"
  "study:points: option 'level' must be a string, got 3")
api_study(16)
rlx_api_matrix_err("study:store_peaks device of the wrong type" "${ST} s:store_peaks({dram_gbps = 1}, {device = 5})"
  "study:store_peaks: option 'device' must be a string, got 5")
api_study(17)
rlx_api_matrix_ok("study:figures draws what a study has"
  "${ST} s:store_run({model = 'm', batch = 2, precision = 'fp32'}, {ok = true, images_per_s = 10, iter_s = {mean = 0.2}}) os.execute('rm -rf ' .. t .. '/api_figs') local f = s:figures{dir = t .. '/api_figs', quiet = true} print(#f.files, f.files[1].figure, f.files[1].path:match('[^/]+$'), f.warnings[1])"
  "1\tA\tthroughput_env-api\\.png\tvariance_fixed_config: one environment \\(api\\); Figure B compares one workload across environments \\(seed 001\\): report with another environment's database that ran it \\(rlx report A\\.db B\\.db, or --set with=B\\.db\\)")
api_study(18)
rlx_api_matrix_err("study:figures unknown option" "${ST} s:figures{dri = 'x'}"
  "rlx\\.figures\\.draw: unknown option 'dri' \\(valid options: dir, fixed, format, height, level, note, quiet, width\\)")
api_study(19)
rlx_api_matrix_err("study:figures wrong type" "${ST} s:figures{dir = 5}" "rlx\\.figures\\.draw: option 'dir' must be a string, got 5")
api_study(20)
rlx_api_matrix_err("study:figures fixed without precision" "${ST} s:figures{fixed = {model = 'm', batch = 2}}"
  "rlx\\.figures\\.draw: option 'fixed': option 'precision' is required \\(a string\\)")
api_study(21)
rlx_api_matrix_err("study:figures directory over a file (C++ exception path)" "${ST} s:figures{dir = 'CMakeLists.txt/figs'}"
  "rlx\\.plot\\.mkdir: cannot create directory 'CMakeLists\\.txt/figs': Not a directory")

# ---- audit fixes -------------------------------------------------------------------------------
# Each case asserts the whole first line of the error: `(command line):1: ` (the caller's line, not
# a line in scripts/rlx/), the public function's name, what is wrong and what was given.
# Errors name the public function called (not a helper it draws or reads through).
rlx_api_matrix_err("rlx.plot.scatter unknown option names scatter" "rlx.plot.scatter{series = {{x = {1}, y = {1}}}, out = 'x.png', bogus = 1}"
  "rlx\\.plot\\.scatter: unknown option 'bogus' \\(valid options: dpi, grid, height, kind, legend, out, series, subtitle, title, width, xlabel, xmax, xmin, xscale, xticks, ylabel, ymax, ymin, yscale, yticks\\)")
rlx_api_matrix_err("rlx.plot.scatter unwritable out names scatter (C++ exception path)" "rlx.plot.scatter{series = {{x = {1}, y = {1}}}, out = '/nonexistent-dir/s.png'}"
  "rlx\\.plot\\.scatter: cannot write figure '/nonexistent-dir/s\\.png': the directory '/nonexistent-dir' does not exist")
rlx_api_matrix_err("rlx.plot.ai_vs_batch unwritable out names ai_vs_batch (C++ exception path)" "rlx.plot.ai_vs_batch{points = {{ai = 1, batch = 2}}, out = '/nonexistent-dir/x.png'}"
  "rlx\\.plot\\.ai_vs_batch: cannot write figure '/nonexistent-dir/x\\.png': the directory '/nonexistent-dir' does not exist")
rlx_api_matrix_err("conn:first SQL of the wrong type names first" "${TMP} rlx.db.open(t .. '/api_db_args1.db'):first(42)"
  "conn:first: the SQL \\(argument 1\\) must be a string, got number")
rlx_api_matrix_err("conn:query SQL of the wrong type counts the user's arguments" "${TMP} rlx.db.open(t .. '/api_db_args2.db'):query(42)"
  "conn:query: the SQL \\(argument 1\\) must be a string, got number")
rlx_api_matrix_err("conn:exec without SQL" "${TMP} rlx.db.open(t .. '/api_db_args3.db'):exec()"
  "conn:exec: the SQL \\(argument 1\\) must be a string, got nil")
rlx_api_matrix_err("conn:merge_from path of the wrong type" "${TMP} rlx.db.open(t .. '/api_db_args4.db'):merge_from(42)"
  "conn:merge_from: the path of the database to merge \\(argument 1\\) must be a string, got number")
rlx_api_matrix_err("conn:exec parameter that is a function" "${TMP} rlx.db.open(t .. '/api_db_args5.db'):exec('SELECT ?', print)"
  "conn:exec: parameter 1: cannot convert a function to data")
rlx_api_matrix_err("conn.query called with a dot" "${TMP} local c = rlx.db.open(t .. '/api_db_args6.db') c.query('SELECT 1')"
  "conn:query: called with '\\.' instead of ':' \\(use conn:query\\(sql, \\.\\.\\.\\)\\)")
rlx_api_matrix_err("conn.first called with a dot" "${TMP} local c = rlx.db.open(t .. '/api_db_args7.db') c.first('SELECT 1')"
  "conn:first: called with '\\.' instead of ':' \\(use conn:first\\(sql, \\.\\.\\.\\)\\)")
rlx_api_matrix_err("conn.close called with a dot" "${TMP} local c = rlx.db.open(t .. '/api_db_args8.db') c.close()"
  "conn:close: called with '\\.' instead of ':' \\(use conn:close\\(\\)\\)")
rlx_api_matrix_err("conn.transaction called with a dot" "${TMP} local c = rlx.db.open(t .. '/api_db_args9.db') c.transaction(function() end)"
  "conn:transaction: called with '\\.' instead of ':' \\(use conn:transaction\\(fn, \\.\\.\\.\\)\\)")
rlx_api_matrix_err("conn:first on a closed connection" "${TMP} local c = rlx.db.open(t .. '/api_db_args10.db') c:close() c:first('SELECT 1')"
  "conn:first: the connection is closed; open the database again with rlx\\.db\\.open")
rlx_api_matrix_ok("conn:first returns the first row or nil"
  "${TMP} local c = rlx.db.open(t .. '/api_db_args11.db') print(c:first('SELECT 1 AS a').a, c:first('SELECT 1 AS a WHERE 0'), c:first('SELECT ? AS b', 'x').b)"
  "1\tnil\tx")
rlx_api_matrix_err("rlx.roofline.compute_roof unknown precision" "rlx.roofline.compute_roof({}, 'fp8')"
  "rlx\\.roofline\\.compute_roof: unknown precision 'fp8' \\(valid precisions: fp32, fp64, tf32, fp16, bf16\\)")
rlx_api_matrix_err("rlx.roofline.compute_roof precision of the wrong type" "rlx.roofline.compute_roof({}, 42)"
  "rlx\\.roofline\\.compute_roof: the precision \\(argument 2\\) must be one of fp32, fp64, tf32, fp16, bf16, got number")
rlx_api_matrix_err("rlx.roofline.compute_roof ceiling of the wrong type" "rlx.roofline.compute_roof({}, nil, 5)"
  "rlx\\.roofline\\.compute_roof: the ceiling \\(argument 3\\) must be a peaks field name such as \"gemm_fp32_gflops\", got number")
rlx_api_matrix_err("rlx.roofline.memory_roof unknown level" "rlx.roofline.memory_roof({}, 'l9')"
  "rlx\\.roofline\\.memory_roof: unknown memory level 'l9' \\(valid levels: dram, l1, l2, l3\\)")
rlx_api_matrix_err("rlx.roofline.memory_roof missing level" "rlx.roofline.memory_roof({}, nil)"
  "rlx\\.roofline\\.memory_roof: the memory level \\(argument 2\\) must be one of dram, l1, l2, l3, got nil")
rlx_api_matrix_err("rlx.plot.ticks log axis from 0" "rlx.plot.ticks{scale = 'log', min = 0, max = 10}"
  "rlx\\.plot\\.ticks: a log axis needs min > 0, got min 0 \\(give a positive min, or scale = \"linear\"\\)")
rlx_api_matrix_err("rlx.plot.ticks min above max" "rlx.plot.ticks{min = 10, max = 1}"
  "rlx\\.plot\\.ticks: option 'min' must be less than 'max', got min 10 and max 1 \\(swap them\\)")
rlx_api_matrix_err("rlx.plot.ticks empty range" "rlx.plot.ticks{min = 1, max = 1}"
  "rlx\\.plot\\.ticks: option 'min' must be less than 'max', got min 1 and max 1 \\(widen the range\\)")
rlx_api_matrix_err("rlx.plot.ticks infinite max" "rlx.plot.ticks{min = 1, max = math.huge}"
  "rlx\\.plot\\.ticks: option 'max' must be a finite number, got inf")
api_study(101)
rlx_api_matrix_err("study.sweep called with a dot" "${ST} s.sweep{models = 'm'}"
  "study:sweep: called with '\\.' instead of ':' \\(use study:sweep\\{\\.\\.\\.\\}\\)")
api_study(102)
rlx_api_matrix_err("study.store_run called with a dot" "${ST} s.store_run({model = 'm'}, {ok = true})"
  "study:store_run: called with '\\.' instead of ':' \\(use study:store_run\\(config, result \\[, options\\]\\)\\)")
api_study(103)
rlx_api_matrix_err("study.peaks called with a dot" "${ST} s.peaks('cpu')"
  "study:peaks: called with '\\.' instead of ':' \\(use study:peaks\\(\\[device\\]\\)\\)")
# Errors of wrong arguments: the public name, what is wrong and what was given, at the caller's line.
rlx_api_matrix_err("rlx.inspect options not a table" "rlx.inspect({1}, 5)"
  "rlx\\.inspect: expected a table of options, got number")
rlx_api_matrix_err("rlx.options.check spec missing" "rlx.options.check('f', {}, nil)"
  "rlx\\.options\\.check: the spec \\(argument 3\\) must be a table mapping each option name to \\{type = \\.\\.\\.\\}, got nil")
rlx_api_matrix_err("rlx.options.check name of the wrong type" "rlx.options.check(nil, {}, {})"
  "rlx\\.options\\.check: the function name \\(argument 1\\) must be a string, got nil")
rlx_api_matrix_err("rlx.errors.raise without a message" "rlx.errors.raise('f', nil)"
  "rlx\\.errors\\.raise: the message \\(argument 2\\) must be a string, got nil")
rlx_api_matrix_err("rlx.stats.t975 df of the wrong type" "rlx.stats.t975('x')"
  "rlx\\.stats\\.t975: df must be a number of degrees of freedom \\(n - 1\\), got string")
rlx_api_matrix_err("rlx.peaks.normalize_name of a number" "rlx.peaks.normalize_name(42)"
  "rlx\\.peaks\\.normalize_name: expected a device name \\(string\\), got number")
rlx_api_matrix_err("rlx.peaks.summarize of a string" "rlx.peaks.summarize('x')"
  "rlx\\.peaks\\.summarize: expected a non-empty array of numbers, got string")
rlx_api_matrix_err("rlx.roofline.compute_roof without peaks" "rlx.roofline.compute_roof(nil, 'fp32')"
  "rlx\\.roofline\\.compute_roof: expected a peaks table \\(rlx\\.peaks\\.measure, rlx\\.peaks\\.datasheet, study:peaks\\), got nil")
rlx_api_matrix_err("rlx.roofline.memory_roof without peaks" "rlx.roofline.memory_roof(5, 'dram')"
  "rlx\\.roofline\\.memory_roof: expected a peaks table \\(rlx\\.peaks\\.measure, rlx\\.peaks\\.datasheet, study:peaks\\), got number")
rlx_api_matrix_err("rlx.train.summary_line of nil" "rlx.train.summary_line(nil)"
  "rlx\\.train\\.summary_line: expected the result table rlx\\.train returns, got nil")
rlx_api_matrix_err("rlx.train.summary_line of an ok result without fields" "rlx.train.summary_line({ok = true})"
  "rlx\\.train\\.summary_line: result field 'model' must be a string, got nil \\(pass the table rlx\\.train returns\\)")
rlx_api_matrix_err("rlx.train.summary_line without iter_s.median" "rlx.train.summary_line({ok = true, model = 'm', device = 'cpu', precision = 'fp32', batch = 2, images_per_s = 5.5, iter_s = {}, data_wait_s = 0, threads = 1, loss_first = 3.5, loss_last = 3.25})"
  "rlx\\.train\\.summary_line: result field 'iter_s\\.median' must be a number, got nil \\(pass the table rlx\\.train returns\\)")
rlx_api_matrix_err("rlx.counters.format_list of nil" "rlx.counters.format_list(nil)"
  "rlx\\.counters\\.format_list: expected the table rlx\\.counters\\.list returns, got nil")
rlx_api_matrix_err("rlx.counters.format_list without source" "rlx.counters.format_list({device = 'cpu'})"
  "rlx\\.counters\\.format_list: field 'source' must be a string, got nil \\(pass the table rlx\\.counters\\.list returns\\)")
rlx_api_matrix_err("rlx.plot.roofs_from_peaks of nil" "rlx.plot.roofs_from_peaks(nil)"
  "rlx\\.plot\\.roofs_from_peaks: expected a peaks table \\(\\{dram_gbps=, fp32_gflops=, \\.\\.\\.\\}\\), got nil")
rlx_api_matrix_err("rlx.plot.roofs_from_peaks used of the wrong type" "rlx.plot.roofs_from_peaks({dram_gbps = 1}, 'fp32')"
  "rlx\\.plot\\.roofs_from_peaks: used \\(argument 2\\) must be a set of precisions such as \\{fp32 = true\\} or nil, got string")
rlx_api_matrix_err("rlx.plot.related_arrows of nil" "rlx.plot.related_arrows(nil)"
  "rlx\\.plot\\.related_arrows: expected an array of points \\{model=, batch=, precision=, \\.\\.\\.\\}, got nil")
rlx_api_matrix_err("rlx.plot.related_arrows point of the wrong type" "rlx.plot.related_arrows({{model = 'm'}, 5})"
  "rlx\\.plot\\.related_arrows: points\\[2\\] must be a table \\{model=, batch=, precision=, \\.\\.\\.\\}, got number")
rlx_api_matrix_err("rlx.model.shape_string of nil" "rlx.model.shape_string(nil)"
  "rlx\\.model\\.shape_string: expected an array of dimensions such as \\{64, 56, 56\\}, got nil")
rlx_api_matrix_err("rlx.model.shape_string element of the wrong type" "rlx.model.shape_string({64, 'x'})"
  "rlx\\.model\\.shape_string: element 2 must be a number, got string")
rlx_api_matrix_err("rlx.study.label without the run" "rlx.study.label('e', 'm', 'fp32', 2)"
  "rlx\\.study\\.label: the run number \\(argument 5\\) must be an integer >= 1, got nil")
# Bad input that used to be accepted silently.
rlx_api_matrix_err("rlx.inspect unknown option" "rlx.inspect({1}, {deph = 2})"
  "rlx\\.inspect: unknown option 'deph' \\(valid options: depth, max_items, width\\)")
rlx_api_matrix_err("rlx.inspect depth of the wrong type" "rlx.inspect({1}, {depth = 'x'})"
  "rlx\\.inspect: option 'depth' must be an integer >= 0, got \"x\"")
rlx_api_matrix_err("rlx.options.check misspelt spec key" "rlx.options.check('f', {a = 1}, {a = {typ = 'string'}})"
  "rlx\\.options\\.check: spec entry 'a' has unknown key 'typ' \\(valid keys: default, help, max, min, one_of, required, type\\)")
rlx_api_matrix_err("rlx.options.check unknown spec type" "rlx.options.check('f', {a = 1}, {a = {type = 'strng'}})"
  "rlx\\.options\\.check: spec entry 'a' has unknown type \"strng\" \\(valid types: any, boolean, function, int_list, integer, number, string, string_list, table\\)")
rlx_api_matrix_err("rlx.json.encode indent of the wrong type" "rlx.json.encode({a = 1}, 'x')"
  "rlx\\.json\\.encode: the indent \\(argument 2\\) must be an integer >= 0 \\(spaces per level\\) or nil \\(one line\\), got string")
rlx_api_matrix_err("rlx.json.encode fractional indent" "rlx.json.encode({a = 1}, 1.5)"
  "rlx\\.json\\.encode: the indent \\(argument 2\\) must be an integer >= 0 \\(spaces per level\\) or nil \\(one line\\), got 1\\.5")
rlx_api_matrix_err("rlx.fail code of the wrong type" "rlx.fail('x', 'msg')"
  "rlx\\.fail: the exit status \\(argument 1\\) must be an integer from 1 to 255, got string \\(usage errors use 2\\)")
rlx_api_matrix_err("rlx.fail without a message" "rlx.fail(3)"
  "rlx\\.fail: the message \\(argument 2\\) must be a string, got nil")
rlx_api_matrix_err("rlx.train.summary_line of a string" "rlx.train.summary_line('x')"
  "rlx\\.train\\.summary_line: expected the result table rlx\\.train returns, got string")
rlx_api_matrix_err("rlx.train.summary_line without ok" "rlx.train.summary_line({model = 'm'})"
  "rlx\\.train\\.summary_line: result field 'ok' must be true or false, got nil \\(pass the table rlx\\.train returns\\)")
rlx_api_matrix_err("rlx.study.label without the environment" "rlx.study.label(nil, 'm', 'fp32', 2, 1)"
  "rlx\\.study\\.label: the environment label \\(argument 1\\) must be a string, got nil")
rlx_api_matrix_ok("rlx.study.label accepts a batch given as a string"
  "print(rlx.study.label('e', 'm', 'fp32', '?', 1))"
  "e_m_fp32_bs\\?_run1")
