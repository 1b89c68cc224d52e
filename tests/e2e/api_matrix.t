# End-to-end tests that complete the five-case matrix of every public Lua function (normal case,
# wrong type, missing key, unknown key, C++-exception / native-error path) where the component
# files (tests/e2e/<component>.t and their scripts) leave a case out. Names start "api: ".
#
# An error raised by `rlx -e CODE` is the whole of stderr: its line, and nothing after it (an rlx
# refusal prints no traceback unless RLX_TRACEBACK=1; issue 35 item 11).
# Cases that need files start with tests/e2e/api_matrix/scratch.lua (the scratch folder, and
# fresh(path), which removes a database an earlier run left) or api_matrix/study.lua(N) (the study
# 'api', environment label 'api', in a new database of its own).

# ---- rlx (init.lua), rlx.json, rlx.options ------------------------------------------------------
api: rlx.inspect nests, sorts keys and cuts at depth
  $ rlx -e 'print(rlx.inspect({3, 1, b = 2, a = {x = 1}}), rlx.inspect({a = {b = 1}}, {depth = 1}))'
  {3, 1, a = {x = 1}, b = 2}\t{a = {...}} (esc)

api: rlx.fail inside pcall is an error value
  $ rlx -e "local ok, e = pcall(rlx.fail, 2, 'usage: x') print(ok, e.exit_code, e.message)"
  false\t2\tusage: x (esc)

api: rlx.json.encode with an indent
  $ rlx -e 'print(rlx.json.encode({a = {1, 2}}, 2))'
  {
    "a": [
      1,
      2
    ]
  }

api: rlx.json.encode of a cycle (C++ exception path)
  $ rlx -e 'local c = {} c.c = c rlx.json.encode(c)'
  stderr: (command line):1: rlx.json.encode: table nested too deeply (or contains a cycle)
  [1]

api: rlx.json.decode wrong type
  $ rlx -e 'rlx.json.decode(42)'
  stderr: (command line):1: rlx.json.decode: argument 1 must be a string, got number
  [1]

api: rlx.options.check fills defaults and lists
  $ rlx -e "local o = rlx.options.check('f', {a = 2, c = 'x'}, {a = {type = 'integer', min = 1}, b = {type = 'string', default = 'd'}, c = {type = 'string_list'}}) print(o.a, o.b, type(o.c), o.c[1])"
  2\td\ttable\tx (esc)

api: rlx.options.check wrong type
  $ rlx -e "rlx.options.check('f', {a = 'x'}, {a = {type = 'integer'}})"
  stderr: (command line):1: f: option 'a' must be an integer, got "x"
  [1]

api: rlx.options.check missing key
  $ rlx -e "rlx.options.check('f', {}, {a = {type = 'integer', required = true}})"
  stderr: (command line):1: f: option 'a' is required (an integer)
  [1]

api: rlx.options.check not a table
  $ rlx -e "rlx.options.check('f', 5, {})"
  stderr: (command line):1: f: expected a table of options, got number
  [1]

api: rlx.options.check one_of
  $ rlx -e "rlx.options.check('f', {p = 'z'}, {p = {type = 'string', one_of = {'x', 'y'}}})"
  stderr: (command line):1: f: option 'p' must be one of x, y, got "z"
  [1]

api: rlx.options.check int_list element
  $ rlx -e "rlx.options.check('f', {b = {2, 0}}, {b = {type = 'int_list', min = 1}})"
  stderr: (command line):1: f: option 'b' element 2 must be an integer >= 1, got 0
  [1]

api: rlx.errors.raise is located at the caller
  $ rlx -e "rlx.errors.raise('f', 'broken, do x')"
  stderr: (command line):1: f: broken, do x
  [1]

api: rlx.errors.expect names the argument
  $ rlx -e "rlx.errors.expect('f', 5, 'string|nil', 'a path (a string)')"
  stderr: (command line):1: f: expected a path (a string), got number
  [1]

# ---- rlx.model ----------------------------------------------------------------------------------
api: rlx.model.summary not a table
  $ rlx -e 'rlx.model.summary(42)'
  stderr: (command line):1: rlx.model.summary: expected a table of options, got number
  [1]

api: rlx.model.max_batch not a table
  $ rlx -e "rlx.model.max_batch('resnet18')"
  stderr: (command line):1: rlx.model.max_batch: expected a table of options, got string
  [1]

api: rlx.model.max_batch model of the wrong type
  $ rlx -e 'rlx.model.max_batch{model = 5, memory_gib = 1}'
  stderr: (command line):1: rlx.model.max_batch: option 'model' must be a model name or a model table, got a number
  [1]

# ---- rlx.train ----------------------------------------------------------------------------------
api: rlx.train.run not a table
  $ rlx -e "rlx.train.run('resnet18')"
  stderr: (command line):1: rlx.train: expected a table of options, got string (e.g. rlx.train{model = "resnet18", batch = 32})
  [1]

api: rlx.train label of the wrong type
  $ rlx -e "rlx.train{model = 'resnet18', label = 5}"
  stderr: (command line):1: rlx.train: option 'label' must be a string, got 5
  [1]

api: rlx.train unknown counter group (C++ exception path)
  $ rlx -e "rlx.train{model = 'resnet18', batch = 2, iters = 1, warmup = 0, input = 32, classes = 10, counters = {'cycels'}}"
  stderr: \(command line\):1: rlx\.train: option 'counters': unknown cpu counter 'cycels' \(valid: cycles, instructions, [a-z_, ]+\) (re)
  [1]

api: rlx.train.summary_line of a real run
  $ rlx -e "local r = rlx.train{model = 'resnet18', batch = 2, iters = 1, warmup = 0, input = 32, classes = 10, threads = 1} print(rlx.train.summary_line(r))"
  resnet18 cpu fp32 batch 2: [0-9.]+ img/s \(median [0-9.]+ s/iter, data wait [0-9.]+ s, 1 threads, channels_last, loss [0-9.]+ -> [0-9.]+\)(; contended \([0-9.]+ other cores, CPU share [0-9]+ %\))? (re)

api: rlx.train.summary_line of given results
  $ rlx -e "print(rlx.train.summary_line({ok = true, model = 'm', device = 'cpu', precision = 'fp32', batch = 2, images_per_s = 5.5, iter_s = {median = 0.375}, data_wait_s = 0, threads = 1, loss_first = 3.5, loss_last = 3.25, label = 'L'})) print(rlx.train.summary_line({ok = false, model = 'm', device = 'cpu', precision = 'amp', batch = 2, error = 'no GPU'}))"
  m cpu fp32 batch 2: 5.5 img/s (median 0.3750 s/iter, data wait 0.000 s, 1 threads, loss 3.500 -> 3.250) [L]
  m cpu amp batch 2: FAILED: no GPU

# ---- rlx.db and connections ---------------------------------------------------------------------
api: rlx.db.hash and rlx.db.now
  $ rlx -e "print(rlx.db.hash({a = 1, b = {2}}) == rlx.db.hash({b = {2}, a = 1}), rlx.db.hash({a = 1}):match('^[0-9a-f]+\$') ~= nil, #rlx.db.hash({}), rlx.db.now():match('^%d%d%d%d%-%d%d%-%d%dT%d%d:%d%d:%d%dZ\$') ~= nil)"
  true\ttrue\t16\ttrue (esc)

api: rlx.db.hash of a function
  $ rlx -e 'rlx.db.hash({f = print})'
  stderr: (command line):1: rlx.db.hash: cannot convert a function to data
  [1]

api: rlx.db.decode wrong type
  $ rlx -e 'rlx.db.decode(42)'
  stderr: (command line):1: rlx.json.decode: argument 1 must be a string, got number
  [1]

api: rlx.db.open options not a table
  $ rlx -e "local t = dofile('tests/e2e/api_matrix/scratch.lua') rlx.db.open(t .. '/api_db_opts.db', 'ro')"
  stderr: (command line):1: rlx.db.open: expected a table of options, got string
  [1]

api: rlx.db.open negative busy timeout
  $ rlx -e "local t = dofile('tests/e2e/api_matrix/scratch.lua') rlx.db.open(t .. '/api_db_opts.db', {busy_timeout_ms = -1})"
  stderr: (command line):1: rlx.db.open: option 'busy_timeout_ms' must be an integer >= 0, got -1
  [1]

api: rlx.db.open create=false on a missing file (C++ exception path)
  $ rlx -e "local t = dofile('tests/e2e/api_matrix/scratch.lua') rlx.db.open(t .. '/api_db_missing.db', {create = false})"
  stderr: \(command line\):1: rlx\.db\.open: no database at '.*/api_db_missing\.db' \(check the path\) (re)
  [1]

api: conn:begin, rollback, commit, in_transaction, readonly
  $ rlx -e "local t, fresh = dofile('tests/e2e/api_matrix/scratch.lua') local c = rlx.db.open(fresh(t .. '/api_db_tx.db')) c:begin() local a = c:in_transaction() c:exec('INSERT INTO studies VALUES (?, ?)', 'tx', 'x') c:rollback() local n1 = c:first('SELECT count(*) AS n FROM studies').n c:begin() c:exec('INSERT INTO studies VALUES (?, ?)', 'tx', 'x') c:commit() local ro = rlx.db.open(t .. '/api_db_tx.db', {readonly = true}) print(a, c:in_transaction(), n1, ro:first('SELECT count(*) AS n FROM studies').n, c:readonly(), ro:readonly())"
  true\tfalse\t0\t1\tfalse\ttrue (esc)

api: conn:query bad SQL (C++ exception path)
  $ rlx -e "local t = dofile('tests/e2e/api_matrix/scratch.lua') rlx.db.open(t .. '/api_db_sql.db'):query('SELEC 1')"
  stderr: \(command line\):1: conn:query: bad SQL for database '.*/api_db_sql\.db': near "SELEC": syntax error (re)
  [1]

api: conn:commit without a transaction (C++ exception path)
  $ rlx -e "local t = dofile('tests/e2e/api_matrix/scratch.lua') rlx.db.open(t .. '/api_db_commit.db'):commit()"
  stderr: \(command line\):1: conn:commit: database '.*/api_db_commit\.db': cannot commit - no transaction is active (re)
  [1]

api: conn:begin inside a transaction
  $ rlx -e "local t = dofile('tests/e2e/api_matrix/scratch.lua') local c = rlx.db.open(t .. '/api_db_begin.db') c:begin() c:begin()"
  stderr: \(command line\):1: conn:begin: database '.*/api_db_begin\.db': cannot start a transaction within a transaction (re)
  [1]

api: conn:begin on a closed connection
  $ rlx -e "local t = dofile('tests/e2e/api_matrix/scratch.lua') local c = rlx.db.open(t .. '/api_db_closed.db') c:close() c:begin()"
  stderr: \(command line\):1: conn:begin: the connection is closed. open the database again with rlx\.db\.open (re)
  [1]

api: conn:merge_from copies a study
  $ rlx -e "local t, fresh = dofile('tests/e2e/api_matrix/scratch.lua') local a = rlx.db.open(fresh(t .. '/api_db_m1.db')) a:exec('INSERT INTO studies VALUES (?, ?)', 's1', 'x') a:close() local b = rlx.db.open(fresh(t .. '/api_db_m2.db')) local n = b:merge_from(t .. '/api_db_m1.db') print(n.studies, n.runs, b:first('SELECT name FROM studies').name)"
  1\t0\ts1 (esc)

api: conn:merge_from of a missing file (C++ exception path)
  $ rlx -e "local t = dofile('tests/e2e/api_matrix/scratch.lua') rlx.db.open(t .. '/api_db_merge.db'):merge_from(t .. '/api_db_nonexistent.db')"
  stderr: \(command line\):1: conn:merge_from: no database at '.*/api_db_nonexistent\.db' \(check the path\) (re)
  [1]

# ---- rlx.env ------------------------------------------------------------------------------------
api: rlx.env.capture not a table
  $ rlx -e "rlx.env.capture('lab')"
  stderr: (command line):1: rlx.env.capture: expected a table of options, got string
  [1]

api: rlx.env.capture zone of the wrong type
  $ rlx -e 'rlx.env.capture{zone = 5}'
  stderr: (command line):1: rlx.env.capture: option 'zone' must be a string, got 5
  [1]

# ---- rlx.stats ----------------------------------------------------------------------------------
api: rlx.stats summary, t975 and argument checks
  $ rlx run tests/e2e/api_matrix/stats.lua
  4\t2.5\t2.5\t1\t4\t1.2910 0.4460 4.5540 1.15 3.85 0.5164 (esc)
  4.303\t2.042\t1.9624\tnil (esc)
  [^ ]*stats\.lua:[0-9]+: rlx\.stats\.median: expected an array of numbers, got string (re)
  [^ ]*stats\.lua:[0-9]+: rlx\.stats\.percentile: expected an array of numbers, got string (re)
  [^ ]*stats\.lua:[0-9]+: rlx\.stats\.percentile: p must be a number in \[0, 100\], got nil (re)
  [^ ]*stats\.lua:[0-9]+: rlx\.stats\.cv: element 2 must be a number, got string (re)
  [^ ]*stats\.lua:[0-9]+: rlx\.stats\.ci95: expected an array of numbers, got nil (re)
  [^ ]*stats\.lua:[0-9]+: rlx\.stats\.summary: expected an array of numbers, got number (re)
  [^ ]*stats\.lua:[0-9]+: rlx\.stats\.mean_sd: expected an array of rows, got string (re)
  [^ ]*stats\.lua:[0-9]+: rlx\.stats\.mean_sd: expected a field name or an array of field names, got number (re)
  [^ ]*stats\.lua:[0-9]+: rlx\.stats\.mean_sd: option 'digits' must be an integer >= 0, got "x" (re)
  [^ ]*stats\.lua:[0-9]+: rlx\.stats\.mean_sd: option 'by' must be a string or an array of strings, got 3 (re)
  [^ ]*stats\.lua:[0-9]+: rlx\.stats\.mean_sd: expected a table of options, got string (re)

# rlx.stats.steady_state, the trainer's verdict worked by hand. {1, 1, 1}: three samples, no verdict.
# {1.0, 1.1, 0.9, 1.0}: halves 1.05 and 0.95, drift -0.0952, variances 0.005 each, Welch t = -0.1 /
# sqrt(0.0025 + 0.0025) = -1.4142 at 2 df, inside t975(2) = 4.303: steady; cv = 0.08165 / 1 (beyond a
# cv rule of 0.05: not steady). {1, 1, 1.2, 1.2}: constant halves that differ always count: drift 0.2.
api: rlx.stats.steady_state verdicts
  $ rlx -e "local function show(v) io.write(string.format('%s %s %.4f %.4f %.4f %g %g|', tostring(v.judged), tostring(v.stable), v.drift, v.cv, v.drift_t, v.max_drift, v.max_cv)) end show(rlx.stats.steady_state{1, 1, 1}) show(rlx.stats.steady_state{1.0, 1.1, 0.9, 1.0}) show(rlx.stats.steady_state{1, 1, 1.2, 1.2}) show(rlx.stats.steady_state({1.0, 1.1, 0.9, 1.0}, {cv = 0.05})) print()"
  false false 0.0000 0.0000 0.0000 0.05 0.25|true true -0.0952 0.0816 -1.4142 0.05 0.25|true false 0.2000 0.1050 0.0000 0.05 0.25|true false -0.0952 0.0816 -1.4142 0.05 0.05|

api: rlx.stats.steady_state of a string sample
  $ rlx -e "rlx.stats.steady_state{1, 'a'}"
  stderr: (command line):1: rlx.stats.steady_state: element 2 must be a number, got string
  [1]

api: rlx.stats.steady_state unknown rule key
  $ rlx -e 'rlx.stats.steady_state({1, 2}, {x = 1})'
  stderr: (command line):1: rlx.stats.steady_state: unknown option 'x' (valid options: cv, drift)
  [1]

# ---- rlx.peaks ----------------------------------------------------------------------------------
api: rlx.peaks.normalize_name
  $ rlx -e "print(rlx.peaks.normalize_name('Tesla V100-SXM2-16GB'), rlx.peaks.normalize_name('NVIDIA  GeForce RTX_4090'))"
  v100 sxm2 16gb\trtx 4090 (esc)

api: rlx.peaks.summarize of no rates (C++ exception path)
  $ rlx -e 'rlx.peaks.summarize({})'
  stderr: (command line):1: rlx.peaks.summarize: expected a non-empty array of numbers
  [1]

api: rlx.peaks.measure not a table
  $ rlx -e "rlx.peaks.measure('cpu')"
  stderr: (command line):1: rlx.peaks.measure: expected a table of options, got string
  [1]

api: rlx.peaks.measure unknown device
  $ rlx -e "rlx.peaks.measure{device = 'tpu'}"
  stderr: (command line):1: rlx.peaks.measure: option 'device' must be one of cpu, cuda, got "tpu"
  [1]

api: rlx.peaks.define not a table
  $ rlx -e "rlx.peaks.define('A100')"
  stderr: (command line):1: rlx.peaks.define: expected a table of options, got string
  [1]

api: rlx.peaks.define missing name
  $ rlx -e "rlx.peaks.define{source = 'y', fp32_gflops = 1}"
  stderr: (command line):1: rlx.peaks.define: option 'name' is required (a string)
  [1]

# ---- rlx.roofline -------------------------------------------------------------------------------
api: rlx.roofline.compute_roof, memory_roof, precision_of
  $ rlx -e "local a, af = rlx.roofline.compute_roof({fp32_gflops = 10, gemm_fp32_gflops = 20}, 'fp32') local b, bf = rlx.roofline.compute_roof({gemm_fp32_gflops = 20}, 'fp32', 'gemm_fp32_gflops') local c, cf = rlx.roofline.compute_roof({peaks = {fp32_gflops = 1}}, 'bf16') local m, mf = rlx.roofline.memory_roof({l2_gbps = 5}, 'l2') print(a, af, b, bf, c, cf, m, mf, rlx.roofline.precision_of('amp'), rlx.roofline.precision_of('bf16'), rlx.roofline.precision_of(nil))"
  10000000000\tfp32_gflops\t20000000000\tgemm_fp32_gflops\tnil\tbf16_tensor_gflops\t5000000000\tl2_gbps\tfp16\tbf16\tfp32 (esc)

api: rlx.roofline.point not a table
  $ rlx -e "rlx.roofline.point('x')"
  stderr: (command line):1: rlx.roofline.point: expected a table of options, got string
  [1]

api: rlx.roofline.for_run options not a table
  $ rlx -e "rlx.roofline.for_run({}, 'x')"
  stderr: (command line):1: rlx.roofline.for_run: expected a table of options, got string
  [1]

api: rlx.roofline.attainable missing argument
  $ rlx -e 'rlx.roofline.attainable(1, 2)'
  stderr: (command line):1: rlx.roofline.attainable: argument 3 must be a number, got no value
  [1]

# ---- rlx.counters -------------------------------------------------------------------------------
api: rlx.counters.import_ncu missing path
  $ rlx -e 'rlx.counters.import_ncu()'
  stderr: (command line):1: rlx.counters.import_ncu: argument 1 must be a string, got nil
  [1]

api: rlx.counters.list not a table
  $ rlx -e "rlx.counters.list('cpu')"
  stderr: (command line):1: rlx.counters.list: expected a table of options, got string
  [1]

api: rlx.counters.available unknown device (C++ exception path)
  $ rlx -e "rlx.counters.available('gpu')"
  stderr: (command line):1: rlx.counters.available: unknown device 'gpu' (use "cpu", "cuda" or "cuda:N")
  [1]

api: rlx.counters.measure options not a table
  $ rlx -e "rlx.counters.measure(function() end, 'x')"
  stderr: (command line):1: rlx.counters.measure: expected a table of options, got string
  [1]

api: rlx.counters.measure iters below 1
  $ rlx -e 'rlx.counters.measure(function() end, {iters = 0})'
  stderr: (command line):1: rlx.counters.measure: option 'iters' must be an integer >= 1, got 0
  [1]

api: rlx.counters.measure unknown device (C++ exception path)
  $ rlx -e "rlx.counters.measure(function() end, {device = 'tpu'})"
  stderr: (command line):1: rlx.counters.measure: option 'device' is invalid: unknown device 'tpu' (use "cpu", "cuda" or "cuda:N")
  [1]

api: rlx.counters.format_list
  $ rlx -e "local l = rlx.counters.format_list(rlx.counters.list{device = 'cpu'}) print(#l > 2, l[1]:match('^device cpu %(perf_event%): ') ~= nil, l[2]:match('^  [ny][eo]s? +cycles +hardware ') ~= nil)"
  true\ttrue\ttrue (esc)

# ---- rlx.plot -----------------------------------------------------------------------------------
api: rlx.plot.line missing out
  $ rlx -e 'rlx.plot.line{series = {{x = {1}, y = {1}}}}'
  stderr: (command line):1: rlx.plot.line: option 'out' is required (a string)
  [1]

api: rlx.plot.line missing series
  $ rlx -e "rlx.plot.line{out = 'x.png'}"
  stderr: (command line):1: rlx.plot.line: option 'series' is required (an array of {label=, x=, y=, sd=})
  [1]

api: rlx.plot.line unknown option
  $ rlx -e "rlx.plot.line{series = {{x = {1}, y = {1}}}, out = 'x.png', colour = 1}"
  stderr: (command line):1: rlx.plot.line: unknown option 'colour' (valid options: dpi, grid, height, kind, legend, out, series, subtitle, title, width, xlabel, xmax, xmin, xscale, xticks, ylabel, ymax, ymin, yscale, yticks)
  [1]

api: rlx.plot.variability unknown option
  $ rlx -e "rlx.plot.variability{groups = {{label = 'a', values = {1}}}, out = 'x.png', bogus = 1}"
  stderr: (command line):1: rlx.plot.variability: unknown option 'bogus' (valid options: dpi, grid, groups, height, legend, out, relative, subtitle, title, width, xlabel, xmax, xmin, ylabel, ymax, ymin, yscale)
  [1]

api: rlx.plot.throughput missing out
  $ rlx -e 'rlx.plot.throughput{series = {{x = {1}, y = {1}}}}'
  stderr: (command line):1: rlx.plot.throughput: option 'out' is required (a string)
  [1]

api: rlx.plot.roofline unwritable out (C++ exception path)
  $ rlx -e "rlx.plot.roofline{points = {{ai = 1, gflops = 1}}, peak_gflops = 10, peak_gbps = 1, out = '/nonexistent-dir/r.png'}"
  stderr: (command line):1: rlx.plot.roofline: cannot write figure '/nonexistent-dir/r.png': the directory '/nonexistent-dir' does not exist
  [1]

api: rlx.plot.ai_vs_batch points of the wrong type
  $ rlx -e "rlx.plot.ai_vs_batch{points = 5, out = 'x.png'}"
  stderr: (command line):1: rlx.plot.ai_vs_batch: option 'points' must be a table, got 5
  [1]

api: rlx.plot.ai_vs_batch unknown option
  $ rlx -e "rlx.plot.ai_vs_batch{points = {}, out = 'x.png', bogus = 1}"
  stderr: (command line):1: rlx.plot.ai_vs_batch: unknown option 'bogus' (valid options: by, color_by, dpi, grid, height, legend, marks, model, out, points, ridges, subtitle, title, width, xlabel, xmax, xmin, ylabel, ymax, ymin, yscale)
  [1]

api: rlx.plot.pixel wrong type
  $ rlx -e "rlx.plot.pixel('x.png', 'a', 1)"
  stderr: (command line):1: rlx.plot.pixel: argument 2 must be a number, got string
  [1]

api: rlx.plot.pixel outside the image (C++ exception path)
  $ rlx -e "local t = dofile('tests/e2e/api_matrix/scratch.lua') rlx.plot.line{series = {{x = {1, 2}, y = {1, 2}}}, out = t .. '/api_pixel.png', width = 200, height = 150} rlx.plot.pixel(t .. '/api_pixel.png', 500, 1)"
  stderr: (command line):1: rlx.plot.pixel: (500, 1) is outside the 200x150 image
  [1]

api: rlx.plot.ticks linear
  $ rlx -e "local l = {} for i, x in ipairs(rlx.plot.ticks{min = 0, max = 10}) do l[i] = x.label end print(table.concat(l, ' '))"
  0 2 4 6 8 10

api: rlx.plot.ticks wrong type
  $ rlx -e "rlx.plot.ticks{min = 'a', max = 10}"
  stderr: (command line):1: rlx.plot.ticks: option 'min' must be a number, got "a"
  [1]

api: rlx.plot.ticks missing max
  $ rlx -e 'rlx.plot.ticks{min = 1}'
  stderr: (command line):1: rlx.plot.ticks: option 'max' is required (a number)
  [1]

api: rlx.plot.ticks unknown option
  $ rlx -e 'rlx.plot.ticks{min = 1, max = 10, bogus = 1}'
  stderr: (command line):1: rlx.plot.ticks: unknown option 'bogus' (valid options: max, min, scale)
  [1]

api: rlx.plot.ticks unknown scale
  $ rlx -e "rlx.plot.ticks{scale = 'ln', min = 1, max = 10}"
  stderr: (command line):1: rlx.plot.ticks: option 'scale' must be one of linear, log, got "ln"
  [1]

api: rlx.plot.related_arrows
  $ rlx -e "local a = rlx.plot.related_arrows({{model = 'm', batch = 2, precision = 'fp32'}, {model = 'm', batch = 2, precision = 'bf16'}, {model = 'm', batch = 4, precision = 'bf16'}}) print(#a, a[1].from, a[1].to)"
  1\t1\t2 (esc)

api: rlx.plot.mkdir creates parents
  $ rlx -e "local t = dofile('tests/e2e/api_matrix/scratch.lua') os.execute('rm -rf ' .. t .. '/api_mkdir') print(rlx.plot.mkdir(t .. '/api_mkdir/a/b'), io.open(t .. '/api_mkdir/a/b/f', 'w') ~= nil)"
  true\ttrue (esc)

api: rlx.plot.mkdir wrong type
  $ rlx -e 'rlx.plot.mkdir(5)'
  stderr: (command line):1: rlx.plot.mkdir: argument 1 must be a string, got number
  [1]

api: rlx.plot.mkdir over a file (C++ exception path)
  $ rlx -e "rlx.plot.mkdir('CMakeLists.txt/figs')"
  stderr: (command line):1: rlx.plot.mkdir: cannot create directory 'CMakeLists.txt/figs': Not a directory
  [1]

# ---- rlx.study and study methods ----------------------------------------------------------------
api: rlx.study name of the wrong type
  $ rlx -e 'rlx.study{name = 3}'
  stderr: (command line):1: rlx.study: option 'name' must be a string, got 3
  [1]

api: rlx.study not a table
  $ rlx -e "rlx.study('cpu')"
  stderr: (command line):1: rlx.study: expected a table of options, got string
  [1]

api: rlx.study on a file that is not a database (C++ exception path)
  $ rlx -e "rlx.study{name = 'x', db = 'CMakeLists.txt'}"
  stderr: \(command line\):1: rlx\.db\.open: 'CMakeLists\.txt' is not a usable SQLite database \(file is not a database\). is it the right file, or was it damaged\? Restore it or start a new database (re)
  [1]

api: rlx.study.label
  $ rlx -e "print(rlx.study.label('gcp-a100', 'resnet50', 'amp', 64, 3))"
  gcp-a100_resnet50_amp_bs64_run3

api: study:plan lists the matrix in order
  $ rlx -e "local s = dofile('tests/e2e/api_matrix/study.lua')(1) local p = s:plan{models = {'a', 'b'}, batch = {1, 2}, repeats = 2} print(#p, p[1].label, p[2].label, p[3].label, p[8].label, p[1].done, p[1].run, p[1].config.batch)"
  8\tapi_a_fp32_bs1_run1\tapi_a_fp32_bs2_run1\tapi_b_fp32_bs1_run1\tapi_b_fp32_bs2_run2\tfalse\t1\t1 (esc)

api: study:plan wrong type
  $ rlx -e "local s = dofile('tests/e2e/api_matrix/study.lua')(2) s:plan{models = 5}"
  stderr: (command line):1: study:plan: option 'models' must be a string or an array of strings, got 5
  [1]

api: study:plan missing models
  $ rlx -e "local s = dofile('tests/e2e/api_matrix/study.lua')(3) s:plan{batch = 2}"
  stderr: (command line):1: study:plan: option 'models' is required (a string or an array of strings)
  [1]

api: study:plan unknown option
  $ rlx -e "local s = dofile('tests/e2e/api_matrix/study.lua')(4) s:plan{models = 'a', bacth = 2}"
  stderr: \(command line\):1: study:plan: unknown option 'bacth' \(valid options: accept_ci, after_s, batch, budget_s, calibration, classes, .*, weight_decay, workers\) (re)
  [1]

api: study:sweep with rlx.train stores the run and its complexity
  $ rlx -e "local s = dofile('tests/e2e/api_matrix/study.lua')(5) local x = s:sweep{models = 'resnet18', batch = 2, iters = 1, warmup = 0, input = 32, classes = 10, threads = 1, quiet = true} local r = s:runs{}[1] print(x.ran, x.ok, x.failed, r.label, r.status, r.images_per_s > 0, r.params)"
  1\t1\t0\tapi_resnet18_fp32_bs2_run1\tok\ttrue\t11181642 (esc)

api: study:sweep stores a run rlx.train rejects (C++ exception path)
  $ rlx -e "local s = dofile('tests/e2e/api_matrix/study.lua')(6) local x = s:sweep{models = 'resnet99', batch = 2, iters = 1, warmup = 0, quiet = true} print(x.ran, x.failed, s:runs{status = 'failed'}[1].error)"
  1\t1\t\(command line\):1: rlx\.train: option 'model': unknown model 'resnet99' \(built-in models: resnet18, resnet34, resnet50, vgg16, mobilenet_v2, alexnet. or pass a Lua model table\) (re)
  stderr starts with: rlx.study: api_resnet99_fp32_bs2_run1 failed: (command line):1: rlx.train: option 'model': unknown model 'resnet99'

api: study:sweep device of the wrong type
  $ rlx -e "local s = dofile('tests/e2e/api_matrix/study.lua')(7) s:sweep{models = 'm', device = 5}"
  stderr: (command line):1: study:sweep: option 'device' must be a string, got 5
  [1]

api: study:sweep trainer of the wrong type
  $ rlx -e "local s = dofile('tests/e2e/api_matrix/study.lua')(8) s:sweep{models = 'm', trainer = 5}"
  stderr: (command line):1: study:sweep: option 'trainer' must be a function, got 5
  [1]

api: study:runs unknown option
  $ rlx -e "local s = dofile('tests/e2e/api_matrix/study.lua')(9) s:runs{modle = 'x'}"
  stderr: (command line):1: study:runs: unknown option 'modle' (valid options: all_studies, batch, device, env, label, model, precision, run, samples, status)
  [1]

api: study:store_run result of the wrong type
  $ rlx -e "local s = dofile('tests/e2e/api_matrix/study.lua')(10) s:store_run({model = 'm'}, 5)"
  stderr: (command line):1: study:store_run: expected a result table, got number
  [1]

api: study:store_run run below 1
  $ rlx -e "local s = dofile('tests/e2e/api_matrix/study.lua')(11) s:store_run({model = 'm'}, {ok = true}, {run = 0})"
  stderr: (command line):1: study:store_run: option 'run' must be an integer >= 1, got 0
  [1]

api: study:attach_counters unknown option
  $ rlx -e "local s = dofile('tests/e2e/api_matrix/study.lua')(12) s:attach_counters('x', {}, {sourc = 'ncu'})"
  stderr: (command line):1: study:attach_counters: unknown option 'sourc' (valid options: source)
  [1]

api: study:attach_counters counters of the wrong type
  $ rlx -e "local s = dofile('tests/e2e/api_matrix/study.lua')(13) s:attach_counters('x', 5)"
  stderr: (command line):1: study:attach_counters: expected a counters table, got number
  [1]

api: study:points source of the wrong value
  $ rlx -e "local s = dofile('tests/e2e/api_matrix/study.lua')(14) s:points{source = 'guess'}"
  stderr: (command line):1: study:points: option 'source' must be one of estimated, measured, got "guess"
  [1]

api: study:points level of the wrong type
  $ rlx -e "local s = dofile('tests/e2e/api_matrix/study.lua')(15) s:points{level = 3}"
  stderr: (command line):1: study:points: option 'level' must be a string, got 3
  [1]

api: study:store_peaks device of the wrong type
  $ rlx -e "local s = dofile('tests/e2e/api_matrix/study.lua')(16) s:store_peaks({dram_gbps = 1}, {device = 5})"
  stderr: (command line):1: study:store_peaks: option 'device' must be a string, got 5
  [1]

api: study:figures draws what a study has
  $ rlx -e "local s, t = dofile('tests/e2e/api_matrix/study.lua')(17) s:store_run({model = 'm', batch = 2, precision = 'fp32'}, {ok = true, images_per_s = 10, iter_s = {mean = 0.2}}) os.execute('rm -rf ' .. t .. '/api_figs') local f = s:figures{dir = t .. '/api_figs', quiet = true} print(#f.files, f.files[1].figure, f.files[1].path:match('[^/]+\$'), f.warnings[1])"
  1\tA\tthroughput_env-api.png\tvariance_fixed_config: one environment (api); Figure B compares one workload across environments (seed 001): report with another environment's database that ran it (rlx report A.db B.db, or --set with=B.db) (esc)

api: study:figures unknown option
  $ rlx -e "local s = dofile('tests/e2e/api_matrix/study.lua')(18) s:figures{dri = 'x'}"
  stderr: (command line):1: rlx.figures.draw: unknown option 'dri' (valid options: dir, fixed, format, height, level, note, quiet, width)
  [1]

api: study:figures wrong type
  $ rlx -e "local s = dofile('tests/e2e/api_matrix/study.lua')(19) s:figures{dir = 5}"
  stderr: (command line):1: rlx.figures.draw: option 'dir' must be a string, got 5
  [1]

api: study:figures fixed without precision
  $ rlx -e "local s = dofile('tests/e2e/api_matrix/study.lua')(20) s:figures{fixed = {model = 'm', batch = 2}}"
  stderr: (command line):1: rlx.figures.draw: option 'fixed': option 'precision' is required (a string)
  [1]

api: study:figures directory over a file (C++ exception path)
  $ rlx -e "local s = dofile('tests/e2e/api_matrix/study.lua')(21) s:figures{dir = 'CMakeLists.txt/figs'}"
  stderr: (command line):1: rlx.plot.mkdir: cannot create directory 'CMakeLists.txt/figs': Not a directory
  [1]

# ---- audit fixes -------------------------------------------------------------------------------
# Each case asserts the whole first line of the error: `(command line):1: ` (the caller's line, not
# a line in scripts/rlx/), the public function's name, what is wrong and what was given.
# Errors name the public function called (not a helper it draws or reads through).
api: rlx.plot.scatter unknown option names scatter
  $ rlx -e "rlx.plot.scatter{series = {{x = {1}, y = {1}}}, out = 'x.png', bogus = 1}"
  stderr: (command line):1: rlx.plot.scatter: unknown option 'bogus' (valid options: dpi, grid, height, kind, legend, out, series, subtitle, title, width, xlabel, xmax, xmin, xscale, xticks, ylabel, ymax, ymin, yscale, yticks)
  [1]

api: rlx.plot.scatter unwritable out names scatter (C++ exception path)
  $ rlx -e "rlx.plot.scatter{series = {{x = {1}, y = {1}}}, out = '/nonexistent-dir/s.png'}"
  stderr: (command line):1: rlx.plot.scatter: cannot write figure '/nonexistent-dir/s.png': the directory '/nonexistent-dir' does not exist
  [1]

api: rlx.plot.ai_vs_batch unwritable out names ai_vs_batch (C++ exception path)
  $ rlx -e "rlx.plot.ai_vs_batch{points = {{ai = 1, batch = 2}}, out = '/nonexistent-dir/x.png'}"
  stderr: (command line):1: rlx.plot.ai_vs_batch: cannot write figure '/nonexistent-dir/x.png': the directory '/nonexistent-dir' does not exist
  [1]

api: conn:first SQL of the wrong type names first
  $ rlx -e "local t = dofile('tests/e2e/api_matrix/scratch.lua') rlx.db.open(t .. '/api_db_args1.db'):first(42)"
  stderr: (command line):1: conn:first: the SQL (argument 1) must be a string, got number
  [1]

api: conn:query SQL of the wrong type counts the user's arguments
  $ rlx -e "local t = dofile('tests/e2e/api_matrix/scratch.lua') rlx.db.open(t .. '/api_db_args2.db'):query(42)"
  stderr: (command line):1: conn:query: the SQL (argument 1) must be a string, got number
  [1]

api: conn:exec without SQL
  $ rlx -e "local t = dofile('tests/e2e/api_matrix/scratch.lua') rlx.db.open(t .. '/api_db_args3.db'):exec()"
  stderr: (command line):1: conn:exec: the SQL (argument 1) must be a string, got nil
  [1]

api: conn:merge_from path of the wrong type
  $ rlx -e "local t = dofile('tests/e2e/api_matrix/scratch.lua') rlx.db.open(t .. '/api_db_args4.db'):merge_from(42)"
  stderr: (command line):1: conn:merge_from: the path of the database to merge (argument 1) must be a string, got number
  [1]

api: conn:exec parameter that is a function
  $ rlx -e "local t = dofile('tests/e2e/api_matrix/scratch.lua') rlx.db.open(t .. '/api_db_args5.db'):exec('SELECT ?', print)"
  stderr: (command line):1: conn:exec: parameter 1: cannot convert a function to data
  [1]

api: conn.query called with a dot
  $ rlx -e "local t = dofile('tests/e2e/api_matrix/scratch.lua') local c = rlx.db.open(t .. '/api_db_args6.db') c.query('SELECT 1')"
  stderr: (command line):1: conn:query: called with '.' instead of ':' (use conn:query(sql, ...))
  [1]

api: conn.first called with a dot
  $ rlx -e "local t = dofile('tests/e2e/api_matrix/scratch.lua') local c = rlx.db.open(t .. '/api_db_args7.db') c.first('SELECT 1')"
  stderr: (command line):1: conn:first: called with '.' instead of ':' (use conn:first(sql, ...))
  [1]

api: conn.close called with a dot
  $ rlx -e "local t = dofile('tests/e2e/api_matrix/scratch.lua') local c = rlx.db.open(t .. '/api_db_args8.db') c.close()"
  stderr: (command line):1: conn:close: called with '.' instead of ':' (use conn:close())
  [1]

api: conn.transaction called with a dot
  $ rlx -e "local t = dofile('tests/e2e/api_matrix/scratch.lua') local c = rlx.db.open(t .. '/api_db_args9.db') c.transaction(function() end)"
  stderr: (command line):1: conn:transaction: called with '.' instead of ':' (use conn:transaction(fn, ...))
  [1]

api: conn:first on a closed connection
  $ rlx -e "local t = dofile('tests/e2e/api_matrix/scratch.lua') local c = rlx.db.open(t .. '/api_db_args10.db') c:close() c:first('SELECT 1')"
  stderr: (command line):1: conn:first: the connection is closed; open the database again with rlx.db.open
  [1]

api: conn:first returns the first row or nil
  $ rlx -e "local t = dofile('tests/e2e/api_matrix/scratch.lua') local c = rlx.db.open(t .. '/api_db_args11.db') print(c:first('SELECT 1 AS a').a, c:first('SELECT 1 AS a WHERE 0'), c:first('SELECT ? AS b', 'x').b)"
  1\tnil\tx (esc)

api: rlx.roofline.compute_roof unknown precision
  $ rlx -e "rlx.roofline.compute_roof({}, 'fp8')"
  stderr: (command line):1: rlx.roofline.compute_roof: unknown precision 'fp8' (valid precisions: fp32, fp64, tf32, fp16, bf16)
  [1]

api: rlx.roofline.compute_roof precision of the wrong type
  $ rlx -e 'rlx.roofline.compute_roof({}, 42)'
  stderr: (command line):1: rlx.roofline.compute_roof: the precision (argument 2) must be one of fp32, fp64, tf32, fp16, bf16, got number
  [1]

api: rlx.roofline.compute_roof ceiling of the wrong type
  $ rlx -e 'rlx.roofline.compute_roof({}, nil, 5)'
  stderr: (command line):1: rlx.roofline.compute_roof: the ceiling (argument 3) must be a peaks field name such as "gemm_fp32_gflops", got number
  [1]

api: rlx.roofline.memory_roof unknown level
  $ rlx -e "rlx.roofline.memory_roof({}, 'l9')"
  stderr: (command line):1: rlx.roofline.memory_roof: unknown memory level 'l9' (valid levels: dram, l1, l2, l3)
  [1]

api: rlx.roofline.memory_roof missing level
  $ rlx -e 'rlx.roofline.memory_roof({}, nil)'
  stderr: (command line):1: rlx.roofline.memory_roof: the memory level (argument 2) must be one of dram, l1, l2, l3, got nil
  [1]

api: rlx.plot.ticks log axis from 0
  $ rlx -e "rlx.plot.ticks{scale = 'log', min = 0, max = 10}"
  stderr: (command line):1: rlx.plot.ticks: a log axis needs min > 0, got min 0 (give a positive min, or scale = "linear")
  [1]

api: rlx.plot.ticks min above max
  $ rlx -e 'rlx.plot.ticks{min = 10, max = 1}'
  stderr: (command line):1: rlx.plot.ticks: option 'min' must be less than 'max', got min 10 and max 1 (swap them)
  [1]

api: rlx.plot.ticks empty range
  $ rlx -e 'rlx.plot.ticks{min = 1, max = 1}'
  stderr: (command line):1: rlx.plot.ticks: option 'min' must be less than 'max', got min 1 and max 1 (widen the range)
  [1]

api: rlx.plot.ticks infinite max
  $ rlx -e 'rlx.plot.ticks{min = 1, max = math.huge}'
  stderr: (command line):1: rlx.plot.ticks: option 'max' must be a finite number, got inf
  [1]

api: study.sweep called with a dot
  $ rlx -e "local s = dofile('tests/e2e/api_matrix/study.lua')(101) s.sweep{models = 'm'}"
  stderr: (command line):1: study:sweep: called with '.' instead of ':' (use study:sweep{...})
  [1]

api: study.store_run called with a dot
  $ rlx -e "local s = dofile('tests/e2e/api_matrix/study.lua')(102) s.store_run({model = 'm'}, {ok = true})"
  stderr: (command line):1: study:store_run: called with '.' instead of ':' (use study:store_run(config, result [, options]))
  [1]

api: study.peaks called with a dot
  $ rlx -e "local s = dofile('tests/e2e/api_matrix/study.lua')(103) s.peaks('cpu')"
  stderr: (command line):1: study:peaks: called with '.' instead of ':' (use study:peaks([device]))
  [1]

# Errors of wrong arguments: the public name, what is wrong and what was given, at the caller's line.
api: rlx.inspect options not a table
  $ rlx -e 'rlx.inspect({1}, 5)'
  stderr: (command line):1: rlx.inspect: expected a table of options, got number
  [1]

api: rlx.options.check spec missing
  $ rlx -e "rlx.options.check('f', {}, nil)"
  stderr: (command line):1: rlx.options.check: the spec (argument 3) must be a table mapping each option name to {type = ...}, got nil
  [1]

api: rlx.options.check name of the wrong type
  $ rlx -e 'rlx.options.check(nil, {}, {})'
  stderr: (command line):1: rlx.options.check: the function name (argument 1) must be a string, got nil
  [1]

api: rlx.errors.raise without a message
  $ rlx -e "rlx.errors.raise('f', nil)"
  stderr: (command line):1: rlx.errors.raise: the message (argument 2) must be a string, got nil
  [1]

api: rlx.stats.t975 df of the wrong type
  $ rlx -e "rlx.stats.t975('x')"
  stderr: (command line):1: rlx.stats.t975: df must be a number of degrees of freedom (n - 1), got string
  [1]

api: rlx.peaks.normalize_name of a number
  $ rlx -e 'rlx.peaks.normalize_name(42)'
  stderr: (command line):1: rlx.peaks.normalize_name: expected a device name (string), got number
  [1]

api: rlx.peaks.summarize of a string
  $ rlx -e "rlx.peaks.summarize('x')"
  stderr: (command line):1: rlx.peaks.summarize: expected a non-empty array of numbers, got string
  [1]

api: rlx.roofline.compute_roof without peaks
  $ rlx -e "rlx.roofline.compute_roof(nil, 'fp32')"
  stderr: (command line):1: rlx.roofline.compute_roof: expected a peaks table (rlx.peaks.measure, rlx.peaks.datasheet, study:peaks), got nil
  [1]

api: rlx.roofline.memory_roof without peaks
  $ rlx -e "rlx.roofline.memory_roof(5, 'dram')"
  stderr: (command line):1: rlx.roofline.memory_roof: expected a peaks table (rlx.peaks.measure, rlx.peaks.datasheet, study:peaks), got number
  [1]

api: rlx.train.summary_line of nil
  $ rlx -e 'rlx.train.summary_line(nil)'
  stderr: (command line):1: rlx.train.summary_line: expected the result table rlx.train returns, got nil
  [1]

api: rlx.train.summary_line of an ok result without fields
  $ rlx -e 'rlx.train.summary_line({ok = true})'
  stderr: (command line):1: rlx.train.summary_line: result field 'model' must be a string, got nil (pass the table rlx.train returns)
  [1]

api: rlx.train.summary_line without iter_s.median
  $ rlx -e "rlx.train.summary_line({ok = true, model = 'm', device = 'cpu', precision = 'fp32', batch = 2, images_per_s = 5.5, iter_s = {}, data_wait_s = 0, threads = 1, loss_first = 3.5, loss_last = 3.25})"
  stderr: (command line):1: rlx.train.summary_line: result field 'iter_s.median' must be a number, got nil (pass the table rlx.train returns)
  [1]

api: rlx.counters.format_list of nil
  $ rlx -e 'rlx.counters.format_list(nil)'
  stderr: (command line):1: rlx.counters.format_list: expected the table rlx.counters.list returns, got nil
  [1]

api: rlx.counters.format_list without source
  $ rlx -e "rlx.counters.format_list({device = 'cpu'})"
  stderr: (command line):1: rlx.counters.format_list: field 'source' must be a string, got nil (pass the table rlx.counters.list returns)
  [1]

api: rlx.plot.roofs_from_peaks of nil
  $ rlx -e 'rlx.plot.roofs_from_peaks(nil)'
  stderr: (command line):1: rlx.plot.roofs_from_peaks: expected a peaks table ({dram_gbps=, fp32_gflops=, ...}), got nil
  [1]

api: rlx.plot.roofs_from_peaks used of the wrong type
  $ rlx -e "rlx.plot.roofs_from_peaks({dram_gbps = 1}, 'fp32')"
  stderr: (command line):1: rlx.plot.roofs_from_peaks: used (argument 2) must be a set of precisions such as {fp32 = true} or nil, got string
  [1]

api: rlx.plot.related_arrows of nil
  $ rlx -e 'rlx.plot.related_arrows(nil)'
  stderr: (command line):1: rlx.plot.related_arrows: expected an array of points {model=, batch=, precision=, ...}, got nil
  [1]

api: rlx.plot.related_arrows point of the wrong type
  $ rlx -e "rlx.plot.related_arrows({{model = 'm'}, 5})"
  stderr: (command line):1: rlx.plot.related_arrows: points[2] must be a table {model=, batch=, precision=, ...}, got number
  [1]

api: rlx.model.shape_string of nil
  $ rlx -e 'rlx.model.shape_string(nil)'
  stderr: (command line):1: rlx.model.shape_string: expected an array of dimensions such as {64, 56, 56}, got nil
  [1]

api: rlx.model.shape_string element of the wrong type
  $ rlx -e "rlx.model.shape_string({64, 'x'})"
  stderr: (command line):1: rlx.model.shape_string: element 2 must be a number, got string
  [1]

api: rlx.study.label without the run
  $ rlx -e "rlx.study.label('e', 'm', 'fp32', 2)"
  stderr: (command line):1: rlx.study.label: the run number (argument 5) must be an integer >= 1, got nil
  [1]

# Bad input that used to be accepted silently.
api: rlx.inspect unknown option
  $ rlx -e 'rlx.inspect({1}, {deph = 2})'
  stderr: (command line):1: rlx.inspect: unknown option 'deph' (valid options: depth, max_items, width)
  [1]

api: rlx.inspect depth of the wrong type
  $ rlx -e "rlx.inspect({1}, {depth = 'x'})"
  stderr: (command line):1: rlx.inspect: option 'depth' must be an integer >= 0, got "x"
  [1]

api: rlx.options.check misspelt spec key
  $ rlx -e "rlx.options.check('f', {a = 1}, {a = {typ = 'string'}})"
  stderr: (command line):1: rlx.options.check: spec entry 'a' has unknown key 'typ' (valid keys: default, help, max, min, one_of, required, type)
  [1]

api: rlx.options.check unknown spec type
  $ rlx -e "rlx.options.check('f', {a = 1}, {a = {type = 'strng'}})"
  stderr: (command line):1: rlx.options.check: spec entry 'a' has unknown type "strng" (valid types: any, boolean, function, int_list, integer, number, string, string_list, table)
  [1]

api: rlx.json.encode indent of the wrong type
  $ rlx -e "rlx.json.encode({a = 1}, 'x')"
  stderr: (command line):1: rlx.json.encode: the indent (argument 2) must be an integer >= 0 (spaces per level) or nil (one line), got string
  [1]

api: rlx.json.encode fractional indent
  $ rlx -e 'rlx.json.encode({a = 1}, 1.5)'
  stderr: (command line):1: rlx.json.encode: the indent (argument 2) must be an integer >= 0 (spaces per level) or nil (one line), got 1.5
  [1]

api: rlx.fail code of the wrong type
  $ rlx -e "rlx.fail('x', 'msg')"
  stderr: (command line):1: rlx.fail: the exit status (argument 1) must be an integer from 1 to 255, got string (usage errors use 2)
  [1]

api: rlx.fail without a message
  $ rlx -e 'rlx.fail(3)'
  stderr: (command line):1: rlx.fail: the message (argument 2) must be a string, got nil
  [1]

api: rlx.train.summary_line of a string
  $ rlx -e "rlx.train.summary_line('x')"
  stderr: (command line):1: rlx.train.summary_line: expected the result table rlx.train returns, got string
  [1]

api: rlx.train.summary_line without ok
  $ rlx -e "rlx.train.summary_line({model = 'm'})"
  stderr: (command line):1: rlx.train.summary_line: result field 'ok' must be true or false, got nil (pass the table rlx.train returns)
  [1]

api: rlx.study.label without the environment
  $ rlx -e "rlx.study.label(nil, 'm', 'fp32', 2, 1)"
  stderr: (command line):1: rlx.study.label: the environment label (argument 1) must be a string, got nil
  [1]

api: rlx.study.label accepts a batch given as a string
  $ rlx -e "print(rlx.study.label('e', 'm', 'fp32', '?', 1))"
  e_m_fp32_bs?_run1
