# End-to-end tests of the REPL's analysis layer (issue 24): the table printer (rlx.show, also used
# by rlx runs), frames (rlx.frame), plots from a frame, help from the embedded docs, and the REPL
# in a real terminal (tmux). Expected values are worked out by hand in the scripts.
set(F ${CMAKE_SOURCE_DIR}/tests/e2e/frame)

rlx_e2e(NAME "frame: the API on hand-worked rows" ARGS run ${F}/api.lua STDOUT "^frame api ok\n$")
add_test(NAME "e2e: frame: group means equal SQL AVG, printer and runs" COMMAND bash ${F}/study_frames.sh $<TARGET_FILE:rlx>
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties("e2e: frame: group means equal SQL AVG, printer and runs" PROPERTIES
  ENVIRONMENT "RLX_TEST_TMP=${RLX_TEST_TMP};RLX_SOURCE_DIR=${CMAKE_SOURCE_DIR};HOME=${RLX_TEST_TMP}")
add_test(NAME "e2e: frame: the REPL in tmux: table, group_by, help, plot, completion"
  COMMAND bash ${F}/repl_tmux.sh $<TARGET_FILE:rlx> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties("e2e: frame: the REPL in tmux: table, group_by, help, plot, completion" PROPERTIES
  ENVIRONMENT "RLX_TEST_TMP=${RLX_TEST_TMP};RLX_SOURCE_DIR=${CMAKE_SOURCE_DIR}" TIMEOUT 300)

# Errors from the prompt's point of view: located at the caller, naming the column and the valid ones.
rlx_e2e(NAME "frame: an unknown column names the valid ones" ARGS -e
  "rlx.frame{{model = 'a', batch = 2}}:where{modle = 'a'}" EXIT 1
  STDERR "^\\(command line\\):1: rows:where: unknown column 'modle' \\(valid columns: batch, model\\)\n")
rlx_e2e(NAME "frame: plot of a text column says to use by" ARGS -e
  "rlx.frame{{model = 'a', batch = 2}}:plot{x = 'model', y = 'batch', out = 'x.png'}" EXIT 1
  STDERR "rows:plot: the x column 'model' holds string in row 1 \\(\"a\"\\): x and y must be numeric columns\\x3b draw one line per value of a text column with by = \"model\"")
rlx_e2e(NAME "frame: plot to a missing directory" ARGS -e
  "rlx.frame{{x = 1, y = 2}, {x = 2, y = 3}}:plot{x = 'x', y = 'y', out = '/nonexistent-dir/p.png'}" EXIT 1
  STDERR "^\\(command line\\):1: rows:plot: cannot write figure '/nonexistent-dir/p\\.png': the directory '/nonexistent-dir' does not exist\n")
rlx_e2e(NAME "show: an unknown option names the valid ones" ARGS -e "rlx.show({{a = 1}}, {rows = 3})" EXIT 1
  STDERR "rlx\\.show: unknown option 'rows' \\(valid options: caption, cols, footer, max_cell, max_rows, width\\)")
# A plot from a frame: repeats at one x become mean and SD; the PNG's size and a line's colour
# where the chart says the first series' mean is (palette colour 1, #0072b2).
rlx_e2e(NAME "frame: plot writes the figure and prints its path" ARGS -e
  "local out = os.getenv('RLX_TEST_TMP') .. '/frame_plot.png' os.remove(out) local f = rlx.frame{{b = 1, y = 10, m = 'a'}, {b = 1, y = 14, m = 'a'}, {b = 2, y = 20, m = 'a'}, {b = 2, y = 5, m = 'b'}} f:plot{x = 'b', y = 'y', by = 'm', out = out} local _, w, h = rlx.plot.pixel(out, 0, 0) print(w, h)"
  STDOUT "/frame_plot\\.png\n1200\t800\n$")

# The table printer as the REPL uses it: records as tables, other values as before.
rlx_e2e(NAME "show: records print as a table, cut to max_rows" ARGS -e
  "rlx.show({{name = 'a', v = 1.5}, {name = 'bb', v = 10}, {name = 'c', v = 0.25}}, {max_rows = 2})"
  STDOUT "^name     v\n----  ----\na      1.5\nbb    10.0\n\\.\\.\\. 1 more rows\n3 rows\n$")
rlx_e2e(NAME "show: is_records tells tables from other values" ARGS -e
  "local s = rlx.show print(s.is_records({{a = 1}}), s.is_records({{a = 1}, n = 2}), s.is_records({1, 2}), s.is_records({}), s.is_records(rlx.frame{}), s.is_records({{1}}))"
  STDOUT "^true\tfalse\tfalse\tfalse\ttrue\tfalse\n$")
rlx_e2e(NAME "show: units where the name has none, columns in frame order" ARGS -e
  "rlx.show(rlx.frame({{model = 'm', ai = 12.5, gflops = 100}}, {'model', 'ai', 'gflops'}))"
  STDOUT "^model  ai \\(FLOP/B\\)  gflops \\(GFLOP/s\\)\n-----  -----------  ----------------\nm             12.5               100\n1 row\n$")

# help: every public function has an entry (internal names start with "_"), and the REPL's ?.
rlx_e2e(NAME "help: every public function has a help entry" ARGS -e
  "print('missing: ' .. table.concat(rlx.help.missing(), ', '))"
  STDOUT "^missing: \n$")
rlx_e2e(NAME "help: help(rlx.train) prints its section, batch included" ARGS -e "rlx.help(rlx.train)"
  STDOUT "^## rlx\\.train\\(options\\) -> result\n.*\n- `batch` \\(default `32`\\): images per iteration .*\\(docs/lua-api/train\\.md\\)")
rlx_e2e(NAME "help: by value, a method of a study" ARGS -e
  "rlx.help(rlx.study{name = 'h', db = os.getenv('RLX_TEST_TMP') .. '/help_study.db'}.runs)"
  STDOUT "^## study:runs\\{\\.\\.\\.\\} -> rows\n")
rlx_e2e(NAME "help: an unknown name suggests entries" ARGS -e "rlx.help('agg')"
  STDOUT "^no help for 'agg'\\x3b did you mean grouped:agg, rows:agg\\?\n$")
rlx_e2e(NAME "help: help() lists the tables" ARGS -e "rlx.help()" STDOUT "\n  rlx\\.train +training runs with timing: a fixed count or precision-targeted.*\n  rlx\\.frame +frames: ")
rlx_e2e(NAME "help: ?name and help() in the REPL" ARGS repl STDIN ${F}/repl_help.txt
  STDOUT "^## rlx\\.plot\\.line\\{.*\\(docs/lua-api/plot\\.md\\)\n## rows:pivot\\{.*rlx: the Lua API")

# Inline images: detected, never assumed (termimg.lua); the escape sequences are well formed.
rlx_e2e(NAME "termimg: protocol detection" ARGS -e
  "local t = require('rlx._termimg') local function env(e) return function(k) return e[k] end end local function d(e, tty, reply) return (t.detect(env(e), tty, function() return reply end)) or 'none' end print(d({TERM = 'xterm-kitty'}, true), d({TERM = 'xterm-kitty'}, false), d({TERM = 'xterm-kitty', TMUX = '/tmp/x'}, true), d({TERM_PROGRAM = 'iTerm.app'}, true), d({TERM = 'xterm'}, true, '\\27\\091?62\\0594\\05922c'), d({TERM = 'xterm'}, true, '\\27\\091?62\\05922c'), d({TERM = 'xterm'}, true, nil), d({RLX_INLINE_IMAGES = '0', TERM = 'xterm-kitty'}, true), d({RLX_INLINE_IMAGES = 'sixel'}, false))"
  STDOUT "^kitty\tnone\tnone\titerm2\tsixel\tnone\tnone\tnone\tsixel\n$")
rlx_e2e(NAME "termimg: base64 and the kitty and iTerm2 sequences" ARGS -e
  "local t = require('rlx._termimg') print(t.base64(''), t.base64('f'), t.base64('fo'), t.base64('foo'), t.base64('foobar')) io.write(t.kitty('foo', 80), t.iterm2('foo', 80))"
  STDOUT "^\tZg==\tZm8=\tZm9v\tZm9vYmFy\n\\x1b_Gf=100,a=T,c=80,m=0\\x3bZm9v\\x1b\\\\\n\\x1b\\]1337\\x3bFile=inline=1\\x3bsize=3\\x3bpreserveAspectRatio=1\\x3bwidth=80:Zm9v\\x07\n$")
rlx_e2e(NAME "termimg: a forced protocol draws the plot inline" ARGS -e
  "rlx.frame{{x = 1, y = 2}, {x = 2, y = 3}}:plot{x = 'x', y = 'y', out = os.getenv('RLX_TEST_TMP') .. '/inline.png'}"
  STDOUT "/inline\\.png\n\\x1b_Gf=100,a=T,c=100,m=1\\x3biVBORw0KGgo")
set_tests_properties("e2e: termimg: a forced protocol draws the plot inline" PROPERTIES
  ENVIRONMENT "RLX_TEST_TMP=${RLX_TEST_TMP};HOME=${RLX_TEST_TMP};RLX_INLINE_IMAGES=kitty")
# Sixel: the PNG (1200x800) scaled to 800 pixels wide (100 columns x 8), encoded (plotting/sixel.cpp).
rlx_e2e(NAME "termimg: a forced sixel draws the plot scaled" ARGS -e
  "rlx.frame{{x = 1, y = 2}, {x = 2, y = 3}}:plot{x = 'x', y = 'y', out = os.getenv('RLX_TEST_TMP') .. '/inline_sixel.png'}"
  STDOUT "/inline_sixel\\.png\n\\x1bPq\"1\\x3b1\\x3b800\\x3b533#[0-9]+\\x3b2\\x3b.*\\x1b\\\\\n$")
set_tests_properties("e2e: termimg: a forced sixel draws the plot scaled" PROPERTIES
  ENVIRONMENT "RLX_TEST_TMP=${RLX_TEST_TMP};HOME=${RLX_TEST_TMP};RLX_INLINE_IMAGES=sixel")
# Log axes on request, SVG by the extension; the returned info says how the axes were drawn.
rlx_e2e(NAME "frame: plot with log axes to SVG" ARGS -e
  "local out = os.getenv('RLX_TEST_TMP') .. '/frame_log.svg' os.remove(out) local i = rlx.frame{{b = 16, y = 10}, {b = 64, y = 1000}}:plot{x = 'b', y = 'y', logx = true, logy = true, out = out} local f = io.open(out) local head = f:read(200) f:close() print(i.format, i.x.scale, i.y.scale, head:find('<svg') ~= nil)"
  STDOUT "/frame_log\\.svg\nsvg\tlog\tlog\ttrue\n$")
# Errors at the prompt name the function that failed (rlx.errors.text: the position is the line
# just typed), a plain error prints without a traceback of builtins, and the REPL goes on.
# The plain error's expectation was "plain" alone: that encoded a bug (the chunk ran as
# `return error("plain")`, a tail call that lost its position and traceback); it now has both.
rlx_e2e(NAME "repl: errors name their function and the REPL goes on" ARGS repl STDIN ${F}/repl_errors.txt EXIT 1
  STDOUT "^still here\n$"
  STDERR "^rlx\\.stats\\.mean_sd: expected a field name or an array of field names, got nil\nrows:where: unknown column 'b' \\(valid columns: a\\)\nstdin:1: plain\nstack traceback:\n\t\\[C\\]: in function 'error'\n\tstdin:1: in main chunk\n$")
# One record is a table of one row (rlx.stats.summary of 1, 2, 3: n 3, mean 2).
rlx_e2e(NAME "show: one record prints as one row" ARGS -e
  "rlx.show(rlx.stats.summary({1, 2, 3}), {cols = {'n', 'mean'}})" STDOUT "^n  mean\n-  ----\n3     2\n1 row\n$")

# Issue 25, the hostile pass over frames and tables. Each failed on the old code: a NaN in a sort
# key made table.sort raise "invalid order function for sorting" (NaN now sorts after every number),
# rows:pivot and rows:plot raised "table index is NaN" (a NaN is a missing value there), 1 and "1"
# mixed their cells in one pivot column, and a cell's escape sequence reached the terminal.
rlx_e2e(NAME "frame: NaN sorts after every number" ARGS -e
  "local nan = 0 / 0 local rows = {} for i = 1, 40 do rows[i] = {v = i % 3 == 0 and nan or (i * 7919) % 101} end local s = rlx.frame(rows):sort('v') local ok = true for i = 2, 40 do local a, b = s[i - 1].v, s[i].v if a ~= a and b == b then ok = false elseif a == a and b == b and a > b then ok = false end end print(ok, s[40].v ~= s[40].v, s[1].v == s[1].v)"
  STDOUT "^true\ttrue\ttrue\n$")
rlx_e2e(NAME "frame: a NaN pivot column is a missing value" ARGS -e
  "local p = rlx.frame{{b = 1, m = 'a', y = 2}, {b = 1, m = 0 / 0, y = 3}}:pivot{rows = 'b', cols = 'm', value = 'y'} print(#p, p[1].a, table.concat(p:columns(), ','))"
  STDOUT "^1\t2\tb,a\n$")
rlx_e2e(NAME "frame: 1 and '1' as pivot columns are refused" EXIT 1 ARGS -e
  "rlx.frame{{b = 1, m = 1, y = 2}, {b = 1, m = '1', y = 3}}:pivot{rows = 'b', cols = 'm', value = 'y'}"
  STDERR "^\\(command line\\):1: rows:pivot: column 'm' holds both the number 1 and the text \"1\", which would be one pivot column: make them one type\n")
rlx_e2e(NAME "frame: plot skips rows with a NaN" ARGS -e
  "local out = os.getenv('RLX_TEST_TMP') .. '/frame_nan.png' rlx.frame{{x = 1, y = 1}, {x = 0 / 0, y = 2}, {x = 2, y = 0 / 0}, {x = 3, y = 3}}:plot{x = 'x', y = 'y', out = out, inline = false}"
  STDOUT "/frame_nan\\.png\n$")
# (ESC c resets a terminal; BEL rings it. No brackets: CMake would not split the arguments.)
rlx_e2e(NAME "show: control characters in a cell are escaped" ARGS -e
  "rlx.show{{label = 'a\\27cb\\7', n = 1}}"
  STDOUT "a\\\\027cb\\\\007")

# Issue 34: rows:plot drew images/s on an axis from -5 (the mean - SD of two repeats 10 and 0.5);
# a quantity that is never negative starts at zero, one that is negative keeps its range.
rlx_e2e(NAME "frame: rows:plot of a never-negative quantity starts at zero" ARGS -e
  "local out = os.getenv('RLX_TEST_TMP') .. '/frame_zero.png' local i = rlx.frame{{b = 1, y = 10}, {b = 1, y = 0.5}, {b = 2, y = 8}, {b = 2, y = 8.2}}:plot{x = 'b', y = 'y', out = out, inline = false} local j = rlx.frame{{b = 1, y = -3}, {b = 2, y = 2}}:plot{x = 'b', y = 'y', out = out, inline = false} print(i.y.min, j.y.min < -3)"
  STDOUT "frame_zero\\.png\n.*frame_zero\\.png\n0\ttrue\n$")
