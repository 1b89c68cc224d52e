# End-to-end tests of the host (issue 2): exit codes, error positions, --set, the REPL on stdin.

host: -e prints
  $ rlx -e 'print(6 * 7)'
  42

host: require('rlx') is the global
  $ rlx -e "print(require('rlx') == rlx)"
  true

# The LibTorch this build was configured against: Debian's 1.13 here, PyTorch's 2.x on a GPU machine.
host: rlx.version().torch is the configured LibTorch
  $ rlx -e 'print(rlx.version().torch)'
  $RLX_TORCH_VERSION[^\n]* (re)

host: version names LibTorch and LuaJIT
  $ rlx version
  stdout contains: LibTorch +$RLX_TORCH_VERSION.*LuaJIT +LuaJIT 2\.1 (re)

host: version --json
  $ rlx version --json
  stdout contains: "luajit"

host: runtime error names file:line, exits 1
  $ rlx run tests/e2e/host/error_line3.lua
  stderr contains:
  error_line3.lua:3: something went wrong with x = 1
  stack traceback:
  [1]

host: syntax error exits 1
  $ rlx run tests/e2e/host/syntax_error.lua
  stderr contains: syntax_error.lua:3:
  [1]

host: unknown subcommand exits 2
  $ rlx bogus-subcommand
  stderr contains: rlx: unknown command 'bogus-subcommand'
  [2]

host: no arguments is a usage error
  $ rlx
  stderr contains: usage: rlx
  [2]

host: unknown global option exits 2
  $ rlx --bogus
  stderr contains: unknown option '--bogus'
  [2]

host: run without a file exits 2
  $ rlx run
  stderr contains: run needs a script
  [2]

host: run of a missing file exits 2
  $ rlx run /nonexistent/x.lua
  stderr contains: cannot open /nonexistent/x.lua (re)
  [2]

host: malformed --set exits 2
  $ rlx run tests/e2e/host/params.lua --set n
  stderr contains: --set expects key=value
  [2]

host: --set reaches rlx.params as a number
  $ rlx run tests/e2e/host/params.lua --set n=21 -- first
  42
  1\tfirst (esc)

host: -e error names the command line
  $ rlx -e 'local a = nil return a.b'
  stderr contains: (command line):1: attempt to index local 'a'
  [1]

host: unknown option key from a Lua-level check
  $ rlx run tests/e2e/host/options_from_lua.lua
  stderr contains: options_from_lua.lua:4: study:sweep: unknown option 'repaets' (valid options: repeats)
  [1]

host: rlx.fail exits with its code and one line
  $ rlx -e "rlx.fail(3, 'custom failure')"
  stderr: custom failure
  [3]

host: repl reads stdin
  $ rlx repl < tests/e2e/host/repl_input.txt
  42

host: repl multi-line, pretty tables, completion
  $ rlx repl < tests/e2e/host/repl_multi.txt
  {1, 4, 9, name = "sq", nested = {deep = {deeper = {deepest = {...}}}}}
  3\t9 (esc)
  "rlx.version"

host: --help lists commands
  $ rlx --help
  stdout contains: Commands:.*run FILE\.lua.*repl (re)

host: run --help
  $ rlx run --help
  stdout contains: usage: rlx run FILE.lua

host: repl --help
  $ rlx repl --help
  stdout contains: usage: rlx repl

host: help COMMAND
  $ rlx help version
  stdout contains: usage: rlx version

host: subcommand usage error exits 2
  $ rlx version --bogus
  stderr contains:
  rlx version: unknown option '--bogus'
  Try 'rlx version --help'.
  [2]

host: RLX_SCRIPTS_DIR overrides embedded modules
  $ bash tests/e2e/host/scripts_dir.sh "$RLX"

host: rlx.json round trip
  $ rlx -e "local t = rlx.json.decode(rlx.json.encode({a = {1, 2}, b = 'x'})) print(t.a[2], t.b)"
  2\tx (esc)

# Issue 32: rlx.json.null encodes as JSON null (seed_layout's peaks.json patched it into the text).
host: rlx.json.null encodes as null
  $ rlx -e 'print(rlx.json.encode({peak = rlx.json.null, n = {1, rlx.json.null}}))'
  {"n":[1,null],"peak":null}

host: rlx.json.decode error
  $ rlx -e "rlx.json.decode('{bad')"
  stderr starts with: (command line):1: rlx.json.decode: invalid JSON at byte 2
  [1]

host: rlx.json.encode wrong type
  $ rlx -e 'rlx.json.encode(print)'
  stderr starts with: (command line):1: rlx.json.encode: cannot convert a function to data
  [1]

# rlx.cli._args: a fixed positional followed by a rest positional splits argv between them.
host: cli args positional then rest
  $ rlx -e "local o = require('rlx.cli._args').parse({name = 'x', usage = 'x', positionals = {{'first'}, {'more', rest = true}}}, {'a', 'b', 'c'}) print(o.first, table.concat(o.rest, ','))"
  a\tb,c (esc)

# Process settings applied at start (engine/util/process_tuning.cpp); setup makes OpenBLAS the BLAS.
host: version lists the process tuning
  $ rlx -e "local t = rlx.version().tuning print(#t, t[1]:match('^malloc: glibc, no mmap') ~= nil, t[2]:match('^thp: ') ~= nil, t[3]:match('^blas: ') ~= nil, t[4]:match('^sgd: one pass') ~= nil)"
  4\ttrue\ttrue\ttrue\ttrue (esc)

# rlx repl --db PATH: `db` and `study` globals; a missing file is an error and is not created.
host: repl --db opens the database and its study
  $ bash tests/e2e/host/repl_db.sh "$RLX"

# Every uncaught error value is printed readably and exits 1-255, never 0 (issue 17 item 10).
host: an error table without message is printed
  $ rlx -e 'error({code = 5})'
  stderr starts with:
  error object: {code = 5}
  stack traceback:
  [1]

host: an error table with __tostring is printed through it
  $ rlx -e "error(setmetatable({}, {__tostring = function() return 'custom text' end}))"
  stderr starts with: custom text\n (esc)
  [1]

host: error exit_code 0 does not exit 0
  $ rlx -e 'error({exit_code = 0})'
  stderr starts with: error object: {exit_code = 0}\n (esc)
  [1]

host: error exit_code 256 does not exit 0
  $ rlx -e 'error({exit_code = 256})'
  stderr starts with: error object: {exit_code = 256}\n (esc)
  [1]

host: rlx.fail refuses status 0
  $ rlx -e "rlx.fail(0, 'ok?')"
  stderr contains: rlx.fail: the exit status (argument 1) must be an integer from 1 to 255, got 0
  [1]

# Binding errors are structured: fn, message, where; tostring gives "where: fn: message".
host: a binding error is a structured table
  $ rlx -e "local ok, e = pcall(rlx.json.decode, '{bad') print(e.fn, e.message, e.where, e.exit_code, tostring(e))"
  rlx.json.decode\tinvalid JSON at byte 2\t(command line):1\tnil\t(command line):1: rlx.json.decode: invalid JSON at byte 2 (esc)

host: a Lua-level error is structured the same way
  $ rlx -e "local ok, e = pcall(rlx.options.check, 'f', {a = 'x'}, {a = {type = 'integer'}}) print(e.fn, e.message, e.where)"
  f\toption 'a' must be an integer, got "x"\t(command line):1 (esc)

# A study's plan (stdout) lands in a log among its progress lines (stderr), in order.
host: run and -e write stdout by lines, in order with stderr in one log
  $ bash tests/e2e/host/line_order.sh "$RLX"
  ok
  stderr:

# Ctrl-C stops running Lua (exit 130), inside pcall too, and in the REPL returns to reading.
host: SIGINT interrupts running Lua
  $ bash tests/e2e/host/interrupt.sh "$RLX"

# Runaway and out-of-range input (issue 17 items 6 and 12): refused with the limit named, exit 2.
host: thread counts far above the hardware threads are refused
  $ rlx train --model resnet18 --threads 100000
  stderr starts with: rlx train: option 'threads' must be at most [0-9]+ \(8 per hardware thread; this machine has [0-9]+\), got 100000\n (re)
  [2]

host: an integer flag beyond 2^53 is refused
  $ rlx train --model resnet18 --batch-size 99999999999999999999999
  stderr starts with: rlx train: --batch-size is out of range: 99999999999999999999999 (at most 9007199254740992)\n (esc)
  [2]

host: hex is not a number in an integer flag
  $ rlx models resnet18 --batch 0x10
  stderr starts with: rlx models: --batch must be integers separated by commas (each an integer >= 1), got '0x10'
  [2]

# Environment labels come from the hardware, never the container kind (issue 15 item 5); a
# database whose environment was stored under another label keeps it; --set env= stays a string.
host: default environment label from the hardware
  $ rlx -e "print(rlx.env.hardware_label{gpu_name = 'NVIDIA GeForce RTX 4090'}, rlx.env.hardware_label{gpu_name = 'NVIDIA H100 80GB HBM3'}, rlx.env.hardware_label{cpu_model = 'AMD EPYC 7B13', cpu_cores = 2}, rlx.env.hardware_label{cpu_model = 'Intel(R) Xeon(R) CPU @ 2.20GHz', cpu_cores = 2}, rlx.env.capture{}.label ~= rlx.env.capture{}.container)"
  rtx4090\th100\tepyc-2c\txeon-2c\ttrue (esc)

host: an old database keeps its environment label
  $ rlx -e "local t = os.getenv('RLX_TEST_TMP') os.remove(t .. '/oldlabel.db') os.remove(t .. '/newlabel.db') rlx.study{name = 't', db = t .. '/oldlabel.db', label = 'docker'}:close() print(rlx.study{name = 't', db = t .. '/oldlabel.db'}.env.label, rlx.study{name = 't', db = t .. '/newlabel.db'}.env.label ~= 'docker')"
  docker\ttrue (esc)

host: --set env=4090 is the label 4090
  $ rlx -e 'print(rlx.env.capture{}.label)' --set env=4090
  4090

# rlx.params.declare (issue 16 item 4): bad values exit 2 naming the key; --help lists them.
host: all.lua --help lists its parameters
  $ rlx run experiments/all.lua --help
  stdout starts with:
  usage: rlx run experiments/all\.lua.* (re)
    budget=STRING +study time budget.* (re)
    iters=INTEGER +a fixed count of measured iterations.*scale=SMOKE\|DEFAULT\|FULL.* (re)
    target_ci=NUMBER +time each run (re)

# Issue 25 finding 7: a script without rlx.params.declare is not run by --help (it trained).
host: run SCRIPT --help does not run a script that declares no parameters
  $ rlx run tests/e2e/host/no_declare.lua --help
  usage: rlx run [^\n]*no_declare\.lua \[--set key=value\]\.\.\. .*declares no parameters .*It was not run\. (re)

# Issue 32: --help is answered by the parameters the script declares, not by a search of its text:
# a script that acts before declaring is stopped at its first action; one that only computes and
# reads first lists its parameters, though "params.declare" is nowhere in its text.
host: run SCRIPT --help stops a script at its first action before declare
  $ rlx run tests/e2e/host/declare_late.lua --help
  usage: rlx run [^\n]*declare_late\.lua \[--set key=value\]\.\.\. .*declares no parameters .*It was not run\. (re)

host: run SCRIPT --help lists the parameters a script declares after computing
  $ rlx run tests/e2e/host/declare_after_reading.lua --help
  stdout starts with:
  usage: rlx run [^\n]*declare_after_reading\.lua \[--set key=value\]\.\.\. (re)

  Parameters:
    lines=INTEGER +lines read (re)

host: a declared parameter with a bad value exits 2
  $ rlx run experiments/all.lua --set scale=huge
  stderr:
  experiments/all.lua: --set scale= must be one of default, full, smoke, got 'huge'
  Try 'rlx run experiments/all.lua --help'.
  [2]

host: a declared integer parameter refuses hex
  $ rlx run experiments/all.lua --set iters=0x10
  stderr starts with: experiments/all.lua: --set iters= must be an integer from 1 to 100000, got '0x10'\n (esc)
  [2]

# Seen while writing the set_params fuzz target, which (with its dictionary) finds it on the code
# before the fix within 60 s; now also a corpus case: a value stored as rlx.params.declare hid
# the function.
host: --set declare= is refused as reserved
  $ rlx run experiments/all.lua --set declare=1
  stderr:
  rlx: --set declare=...: 'declare' is reserved (rlx.params.declare); give the parameter another name
  Try 'rlx run --help'.
  [2]

host: an undeclared parameter exits 2
  $ rlx run experiments/all.lua --set bogus=1
  stderr starts with: experiments/all.lua: unknown parameter 'bogus' (valid: batch, budget, counters, data, db, devices,\x20 (esc)
  [2]

# rlx.experiment.pick (issue 16 item 5): the environment label first, then the GPU's hardware label,
# then the device kind; a file for another kind is passed over. Seed 001's lists per environment.
experiment: pick chooses the environment script by label, GPU, then kind
  $ rlx -e "local p = rlx.experiment.pick local function show(kind, labels) local path, name, e = p('experiments', kind, labels) print(name, table.concat(e.batch, '/'), table.concat(e.precision, '+'), tostring(e.counters)) end show('cuda', {'gcp', 'rtx4090'}) show('cuda', {'mybox', rlx.env.hardware_label{gpu_name = 'NVIDIA GeForce RTX 4090'}}) show('cuda', {'mybox', 'h100'}) show('cpu', {'rtx4090'}) show('cpu', {nil, nil}) print(p('experiments', 'mps', {'gcp'}) == nil)"
  gcp\t32/64/128\tfp32+amp\ttrue (esc)
  rtx4090\t64/128/256\tfp32+amp\ttrue (esc)
  cuda\t64/128/256\tfp32+amp\ttrue (esc)
  cpu\t16/32/64\tfp32+bf16\tnil (esc)
  cpu\t16/32/64\tfp32+bf16\tnil (esc)
  true

experiment: run refuses an unknown option
  $ rlx -e "rlx.experiment.run({}, {dir = 'experiments', matrix = {}, scale = {}, retry = true})"
  stderr contains: unknown option 'retry'
  [1]

host: all.lua takes per-environment lists from experiments/<label>.lua
  $ bash tests/e2e/host/env_lists.sh "$RLX"

# The OpenBLAS kernel choice before LibTorch loads and its check in a child process
# (engine/startup/blas_choice.h); and the SIGINT, stdin and exit-code tests once more with the
# override in the way.
host: OpenBLAS kernel choice, numerical check in a child process
  ctest: SKIP_RETURN_CODE 77
  $ bash tests/e2e/host/blas_kernel.sh "$RLX"

host: SIGINT interrupts running Lua with rlx's BLAS kernel
  $ RLX_TEST_BLAS_CORENAME=Prescott bash tests/e2e/host/interrupt.sh "$RLX"

# LibTorch is loaded on first use, from beside the executable (issue 47).
host: LibTorch is loaded on first use, from beside the executable
  $ bash tests/e2e/host/lazy_torch.sh "$RLX"

# A Ctrl-C during the start-up (issue 48 item 11), also in a background job that inherited it ignored.
host: SIGINT during the start-up ends rlx with 130, even when inherited ignored
  $ bash tests/e2e/host/startup_signals.sh "$RLX"
  stdout ends with: ok

# Facts cross from C++ to Lua as fields: no Lua module pattern-matches a text C++ writes (issue 47).
host: no Lua module matches text that C++ writes
  $ bash tests/e2e/host/no_prose_matching.sh

# Debian's LibTorch reaches OpenBLAS; PyTorch's wheels carry MKL linked in, which rlx does not
# name ("unknown (not OpenBLAS: no kernel choice)").
host: the environment records the BLAS kernel and why
  requires: not cuda-torch
  $ rlx -e "local e = rlx.env.capture() print(e.blas.name, e.blas.reason == rlx.version().blas.reason, e.blas.check, rlx.env.markdown(e):match('| BLAS kernel | ([^|]+) |') == e.blas.reason)"
  OpenBLAS\ttrue\tnil\ttrue (esc)

host: the environment records the BLAS kernel and why
  requires: cuda-torch
  $ rlx -e "local e = rlx.env.capture() print(e.blas.name, e.blas.reason == rlx.version().blas.reason, e.blas.check, rlx.env.markdown(e):match('| BLAS kernel | ([^|]+) |') == e.blas.reason)"
  (OpenBLAS|unknown)\ttrue\tnil\ttrue (re)

# Issue 25 finding 11: messages that named no line, or the wrong file. Each failed on the old code:
# a stack overflow was a bare "stack overflow", a failing __tostring "error in error handling",
# and misused rlx.errors helpers failed inside errors.lua.
host: a stack overflow names the line that overflowed
  $ rlx -e 'local function f(n) return 1 + f(n) end f(1)'
  stderr starts with:
  (command line):1: stack overflow (a function that calls itself without end?)
  stack traceback:\n (esc)
  [1]

host: a stack overflow too deep for a traceback says so
  $ rlx -e 'local function f() return 1 + f() end f()'
  stderr contains: stack overflow (a function that calls itself without end?)
  [1]

host: an error whose __tostring fails is named with why
  $ rlx -e "error(setmetatable({}, {__tostring = function() error('boom') end}))"
  stderr starts with:
  (an error object whose __tostring failed: (command line):1: boom)
  stack traceback:\n (esc)
  [1]

host: rlx.errors._usage with a nil argument names itself, not errors.lua
  $ rlx -e "rlx.errors._usage(nil, 'm', 'x')"
  stderr starts with: (command line):1: rlx.errors._usage: argument 1 (who) must be a string, got nil\n (esc)
  [1]

host: rlx.errors.expect without its description names itself
  $ rlx -e "rlx.errors.expect('f', 1, 'string')"
  stderr starts with: (command line):1: rlx.errors.expect: expected (function name, value, types, what)
  [1]
