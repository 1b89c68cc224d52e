# End-to-end tests of the REPL's analysis layer (issue 24): the table printer (rlx.show, also used
# by rlx runs), frames (rlx.frame), plots from a frame, help from the embedded docs, and the REPL
# in a real terminal (tmux). Expected values are worked out by hand in the scripts.

frame: the API on hand-worked rows
  $ rlx run tests/e2e/frame/api.lua
  frame api ok

frame: group means equal SQL AVG, printer and runs
  $ bash tests/e2e/frame/study_frames.sh "$RLX"

frame: the REPL in tmux: table, group_by, help, plot, completion
  ctest: TIMEOUT 300
  $ bash tests/e2e/frame/repl_tmux.sh "$RLX"

# Errors from the prompt's point of view: located at the caller, naming the column and the valid ones.
frame: an unknown column names the valid ones
  $ rlx -e "rlx.frame{{model = 'a', batch = 2}}:where{modle = 'a'}"
  stderr starts with: (command line):1: rows:where: unknown column 'modle' (valid columns: batch, model)\n (esc)
  [1]

frame: plot of a text column says to use by
  $ rlx -e "rlx.frame{{model = 'a', batch = 2}}:plot{x = 'model', y = 'batch', out = 'x.png'}"
  stderr contains: rows:plot: the x column 'model' holds string in row 1 ("a"): x and y must be numeric columns; draw one line per value of a text column with by = "model"
  [1]

frame: plot to a missing directory
  $ rlx -e "rlx.frame{{x = 1, y = 2}, {x = 2, y = 3}}:plot{x = 'x', y = 'y', out = '/nonexistent-dir/p.png'}"
  stderr starts with: (command line):1: rows:plot: cannot write figure '/nonexistent-dir/p.png': the directory '/nonexistent-dir' does not exist\n (esc)
  [1]

show: an unknown option names the valid ones
  $ rlx -e 'rlx.show({{a = 1}}, {rows = 3})'
  stderr contains: rlx.show: unknown option 'rows' (valid options: caption, cols, footer, max_cell, max_rows, width)
  [1]

# A plot from a frame: repeats at one x become mean and SD; the PNG's size and a line's colour
# where the chart says the first series' mean is (palette colour 1, #0072b2).
frame: plot writes the figure and prints its path
  $ rlx -e "local out = os.getenv('RLX_TEST_TMP') .. '/frame_plot.png' os.remove(out) local f = rlx.frame{{b = 1, y = 10, m = 'a'}, {b = 1, y = 14, m = 'a'}, {b = 2, y = 20, m = 'a'}, {b = 2, y = 5, m = 'b'}} f:plot{x = 'b', y = 'y', by = 'm', out = out} local _, w, h = rlx.plot.pixel(out, 0, 0) print(w, h)"
  stdout ends with:
  /frame_plot.png
  1200\t800 (esc)

# The table printer as the REPL uses it: records as tables, other values as before.
show: records print as a table, cut to max_rows
  $ rlx -e "rlx.show({{name = 'a', v = 1.5}, {name = 'bb', v = 10}, {name = 'c', v = 0.25}}, {max_rows = 2})"
  name     v
  ----  ----
  a      1.5 (re)
  bb    10.0 (re)
  ... 1 more rows
  3 rows

show: is_records tells tables from other values
  $ rlx -e 'local s = rlx.show print(s.is_records({{a = 1}}), s.is_records({{a = 1}, n = 2}), s.is_records({1, 2}), s.is_records({}), s.is_records(rlx.frame{}), s.is_records({{1}}))'
  true\tfalse\tfalse\tfalse\ttrue\tfalse (esc)

show: units where the name has none, columns in frame order
  $ rlx -e "rlx.show(rlx.frame({{model = 'm', ai = 12.5, gflops = 100}}, {'model', 'ai', 'gflops'}))"
  model  ai (FLOP/B)  gflops (GFLOP/s)
  -----  -----------  ----------------
  m             12.5               100 (re)
  1 row

# help: every public function has an entry (internal names start with "_"), and the REPL's ?.
help: every public function has a help entry
  $ rlx -e "print('missing: ' .. table.concat(rlx.help.missing(), ', '))"
  missing:\x20 (esc)

help: help(rlx.train) prints its section, batch included
  $ rlx -e 'rlx.help(rlx.train)'
  stdout starts with:
  ## rlx.train(options) -> result
  .* (re)
  - `batch` \(default `32`\): images per iteration .*\(docs/lua-api/train\.md\) (re)

help: by value, a method of a study
  $ rlx -e "rlx.help(rlx.study{name = 'h', db = os.getenv('RLX_TEST_TMP') .. '/help_study.db'}.runs)"
  stdout starts with: ## study:runs{...} -> rows\n (esc)

help: an unknown name suggests entries
  $ rlx -e "rlx.help('agg')"
  no help for 'agg'; did you mean grouped:agg, rows:agg?

help: help() lists the tables
  $ rlx -e 'rlx.help()'
  stdout contains:
  \n  rlx\.train +training runs with timing: a fixed count or precision-targeted.* (re)
    rlx\.frame +frames:\x20 (re)

help: ?name and help() in the REPL
  $ rlx repl < tests/e2e/frame/repl_help.txt
  stdout starts with:
  ## rlx\.plot\.line\{.*\(docs/lua-api/plot\.md\) (re)
  ## rows:pivot\{.*rlx: the Lua API (re)

# Inline images: detected, never assumed (termimg.lua); the escape sequences are well formed.
termimg: protocol detection
  $ rlx -e "local t = require('rlx._termimg') local function env(e) return function(k) return e[k] end end local function d(e, tty, reply) return (t.detect(env(e), tty, function() return reply end)) or 'none' end print(d({TERM = 'xterm-kitty'}, true), d({TERM = 'xterm-kitty'}, false), d({TERM = 'xterm-kitty', TMUX = '/tmp/x'}, true), d({TERM_PROGRAM = 'iTerm.app'}, true), d({TERM = 'xterm'}, true, '\27\091?62\0594\05922c'), d({TERM = 'xterm'}, true, '\27\091?62\05922c'), d({TERM = 'xterm'}, true, nil), d({RLX_INLINE_IMAGES = '0', TERM = 'xterm-kitty'}, true), d({RLX_INLINE_IMAGES = 'sixel'}, false))"
  kitty\tnone\tnone\titerm2\tsixel\tnone\tnone\tnone\tsixel (esc)

termimg: base64 and the kitty and iTerm2 sequences
  $ rlx -e "local t = require('rlx._termimg') print(t.base64(''), t.base64('f'), t.base64('fo'), t.base64('foo'), t.base64('foobar')) io.write(t.kitty('foo', 80), t.iterm2('foo', 80))"
  \tZg==\tZm8=\tZm9v\tZm9vYmFy (esc)
  \x1b_Gf=100,a=T,c=80,m=0;Zm9v\x1b\\ (esc)
  \x1b]1337;File=inline=1;size=3;preserveAspectRatio=1;width=80:Zm9v\x07 (esc)

termimg: a forced protocol draws the plot inline
  $ RLX_INLINE_IMAGES=kitty rlx -e "rlx.frame{{x = 1, y = 2}, {x = 2, y = 3}}:plot{x = 'x', y = 'y', out = os.getenv('RLX_TEST_TMP') .. '/inline.png'}"
  stdout contains:
  /inline.png
  \x1b_Gf=100,a=T,c=100,m=1;iVBORw0KGgo (esc)

# Sixel: the PNG (1200x800) scaled to 800 pixels wide (100 columns x 8), encoded (plotting/sixel.cpp).
termimg: a forced sixel draws the plot scaled
  $ RLX_INLINE_IMAGES=sixel rlx -e "rlx.frame{{x = 1, y = 2}, {x = 2, y = 3}}:plot{x = 'x', y = 'y', out = os.getenv('RLX_TEST_TMP') .. '/inline_sixel.png'}"
  stdout ends with:
  /inline_sixel.png
  \x1bPq"1;1;800;533#[0-9]+;2;.*\x1b\\ (re)

# Log axes on request, SVG by the extension; the returned info says how the axes were drawn.
frame: plot with log axes to SVG
  $ rlx -e "local out = os.getenv('RLX_TEST_TMP') .. '/frame_log.svg' os.remove(out) local i = rlx.frame{{b = 16, y = 10}, {b = 64, y = 1000}}:plot{x = 'b', y = 'y', logx = true, logy = true, out = out} local f = io.open(out) local head = f:read(200) f:close() print(i.format, i.x.scale, i.y.scale, head:find('<svg') ~= nil)"
  stdout ends with:
  /frame_log.svg
  svg\tlog\tlog\ttrue (esc)

# Errors at the prompt name the function that failed (rlx.errors.text: the position is the line
# just typed), a plain error prints without a traceback of builtins, and the REPL goes on.
# The plain error's expectation was "plain" alone: that encoded a bug (the chunk ran as
# `return error("plain")`, a tail call that lost its position and traceback); it now has both.
repl: errors name their function and the REPL goes on
  $ rlx repl < tests/e2e/frame/repl_errors.txt
  still here
  stderr:
  rlx.stats.mean_sd: expected a field name or an array of field names, got nil
  rows:where: unknown column 'b' (valid columns: a)
  stdin:1: plain
  stack traceback:
  \t[C]: in function 'error' (esc)
  \tstdin:1: in main chunk (esc)
  [1]

# One record is a table of one row (rlx.stats.summary of 1, 2, 3: n 3, mean 2).
show: one record prints as one row
  $ rlx -e "rlx.show(rlx.stats.summary({1, 2, 3}), {cols = {'n', 'mean'}})"
  n  mean
  -  ----
  3     2
  1 row

# Issue 25, the hostile pass over frames and tables. Each failed on the old code: a NaN in a sort
# key made table.sort raise "invalid order function for sorting" (NaN now sorts after every number),
# rows:pivot and rows:plot raised "table index is NaN" (a NaN is a missing value there), 1 and "1"
# mixed their cells in one pivot column, and a cell's escape sequence reached the terminal.
frame: NaN sorts after every number
  $ rlx -e "local nan = 0 / 0 local rows = {} for i = 1, 40 do rows[i] = {v = i % 3 == 0 and nan or (i * 7919) % 101} end local s = rlx.frame(rows):sort('v') local ok = true for i = 2, 40 do local a, b = s[i - 1].v, s[i].v if a ~= a and b == b then ok = false elseif a == a and b == b and a > b then ok = false end end print(ok, s[40].v ~= s[40].v, s[1].v == s[1].v)"
  true\ttrue\ttrue (esc)

frame: a NaN pivot column is a missing value
  $ rlx -e "local p = rlx.frame{{b = 1, m = 'a', y = 2}, {b = 1, m = 0 / 0, y = 3}}:pivot{rows = 'b', cols = 'm', value = 'y'} print(#p, p[1].a, table.concat(p:columns(), ','))"
  1\t2\tb,a (esc)

frame: 1 and '1' as pivot columns are refused
  $ rlx -e "rlx.frame{{b = 1, m = 1, y = 2}, {b = 1, m = '1', y = 3}}:pivot{rows = 'b', cols = 'm', value = 'y'}"
  stderr starts with: (command line):1: rows:pivot: column 'm' holds both the number 1 and the text "1", which would be one pivot column: make them one type\n (esc)
  [1]

frame: plot skips rows with a NaN
  $ rlx -e "local out = os.getenv('RLX_TEST_TMP') .. '/frame_nan.png' rlx.frame{{x = 1, y = 1}, {x = 0 / 0, y = 2}, {x = 2, y = 0 / 0}, {x = 3, y = 3}}:plot{x = 'x', y = 'y', out = out, inline = false}"
  stdout ends with: /frame_nan.png

# (ESC c resets a terminal; BEL rings it.)
show: control characters in a cell are escaped
  $ rlx -e "rlx.show{{label = 'a\27cb\7', n = 1}}"
  stdout contains: a\027cb\007

# Issue 34: rows:plot drew images/s on an axis from -5 (the mean - SD of two repeats 10 and 0.5);
# a quantity that is never negative starts at zero, one that is negative keeps its range.
frame: rows:plot of a never-negative quantity starts at zero
  $ rlx -e "local out = os.getenv('RLX_TEST_TMP') .. '/frame_zero.png' local i = rlx.frame{{b = 1, y = 10}, {b = 1, y = 0.5}, {b = 2, y = 8}, {b = 2, y = 8.2}}:plot{x = 'b', y = 'y', out = out, inline = false} local j = rlx.frame{{b = 1, y = -3}, {b = 2, y = 2}}:plot{x = 'b', y = 'y', out = out, inline = false} print(i.y.min, j.y.min < -3)"
  stdout ends with:
  frame_zero.png
  .*frame_zero\.png (re)
  0\ttrue (esc)
