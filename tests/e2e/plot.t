# End-to-end tests of rlx.plot, rlx.figures and experiments/ (issue 7). Charts are drawn to
# PNG/SVG/PDF under RLX_TEST_TMP and PNG pixels sampled where the returned axes put things.

# The title stops where CMake cut the old name, at its ';'; it went on: pixels where the axes say
plot: every chart to png, svg and pdf
  $ rlx run tests/e2e/plot/charts.lua
  png\tpng\tpng\t1200x800 (esc)
  svg\tsvg\tsvg\t1200x800 (esc)
  pdf\tpdf\tpdf\t1200x800 (esc)
  roof\ttrue (esc)
  ceiling\ttrue (esc)
  point1\ttrue (esc)
  point3\ttrue (esc)
  ridge\t10\tabove\tfalse (esc)
  ticks\t0.1 1 10 100 1k (esc)
  from peaks\tDRAM,L2,fp16 tensor,fp32 (esc)
  png\tpng\tpng\tpng\tpng\tpng\t1200\t800\tlog\t0\tpng (esc)
  svg\tsvg\tsvg\tsvg\tsvg\tsvg\t1200\t800\tlog\t0\tsvg (esc)
  pdf\tpdf\tpdf\tpdf\tpdf\tpdf\t1200\t800\tlog\t0\tpdf (esc)
  throughput marker\ttrue\tymin\t0 (esc)

plot: roofline above-roof point is flagged
  $ rlx -e "local i = rlx.plot.roofline{points = {{ai = 1, gflops = 50, model = 'm', precision = 'fp32'}}, peak_gflops = 100, peak_gbps = 10, out = os.getenv('RLX_TEST_TMP') .. '/e2e_above.png'} print(i.above_roof[1], i.ridge_ai)"
  true\t10 (esc)

plot: roofline wrong type
  $ rlx -e "rlx.plot.roofline{points = 5, out = 'x.png', peak_gflops = 1, peak_gbps = 1}"
  stderr starts with: (command line):1: rlx.plot.roofline: option 'points' must be a table, got 5\n (esc)
  [1]

plot: roofline missing out
  $ rlx -e 'rlx.plot.roofline{peak_gflops = 1}'
  stderr starts with: (command line):1: rlx.plot.roofline: option 'out' is required (a string)\n (esc)
  [1]

plot: roofline unknown option
  $ rlx -e "rlx.plot.roofline{colour = 1, out = 'x.png'}"
  stderr starts with: (command line):1: rlx.plot.roofline: unknown option 'colour' (valid options: arrows, ceilings, color_by,\x20 (esc)
  [1]

plot: roofline without roofs
  $ rlx -e "rlx.plot.roofline{out = 'x.png', peak_gflops = 1}"
  stderr contains: rlx.plot.roofline: no memory roof: pass peak_bw= and peak_flops= (byte/s, FLOP/s)
  [1]

plot: roofline peak_flops in GFLOP/s by mistake
  $ rlx -e "rlx.plot.roofline{out = 'x.png', peak_flops = 100, peak_gbps = 1}"
  stderr contains: peak_flops is in FLOP/s and 100 looks like GFLOP/s: pass peak_gflops=100 instead
  [1]

plot: roofline bad point
  $ rlx -e "rlx.plot.roofline{out = os.getenv('RLX_TEST_TMP') .. '/x.png', points = {{ai = -1, gflops = 1}}, peak_gflops = 100, peak_gbps = 1}"
  stderr starts with: (command line):1: rlx.plot.roofline: points[1] field 'ai' must be a positive finite number, got -1\n (esc)
  [1]

plot: C++ exception path names the file
  $ rlx -e "rlx.plot.line{series = {{x = {1}, y = {1}}}, out = '/nonexistent-dir/x.png'}"
  stderr starts with: (command line):1: rlx.plot.line: cannot write figure '/nonexistent-dir/x.png': the directory '/nonexistent-dir' does not exist\n (esc)
  [1]

plot: unknown extension
  $ rlx -e "rlx.plot.line{series = {{x = {1}, y = {1}}}, out = 'x.jpg'}"
  stderr contains: rlx.plot.line: cannot tell the image format of 'x.jpg': end the file name with .png, .svg or .pdf
  [1]

plot: throughput wrong type
  $ rlx -e "rlx.plot.throughput{series = 5, out = 'x.png'}"
  stderr starts with: (command line):1: rlx.plot.throughput: option 'series' must be an array of tables, got number\n (esc)
  [1]

plot: throughput missing series
  $ rlx -e "rlx.plot.throughput{out = 'x.png'}"
  stderr contains: rlx.plot.throughput: option 'series' is required (an array of {label=, x=, y=, sd=})
  [1]

plot: throughput unknown option
  $ rlx -e "rlx.plot.throughput{series = {}, out = 'x.png', bogus = 1}"
  stderr contains: rlx.plot.throughput: unknown option 'bogus' (valid options: dpi, grid, height,\x20 (esc)
  [1]

plot: throughput mismatched series
  $ rlx -e "rlx.plot.throughput{series = {{x = {1, 2}, y = {1}}}, out = os.getenv('RLX_TEST_TMP') .. '/x.png'}"
  stderr contains: rlx.plot.throughput: series 1 has 2 x values and 1 y values: give one y per x
  [1]

plot: variability wrong type
  $ rlx -e "rlx.plot.variability{groups = 'a', out = 'x.png'}"
  stderr contains: rlx.plot.variability: option 'groups' must be an array of tables, got string
  [1]

plot: variability empty group
  $ rlx -e "rlx.plot.variability{groups = {{label = 'a', values = {}}}, out = os.getenv('RLX_TEST_TMP') .. '/x.png'}"
  stderr contains: rlx.plot.variability: group 'a' has no values
  [1]

plot: variability missing groups
  $ rlx -e "rlx.plot.variability{out = 'x.png'}"
  stderr contains: rlx.plot.variability: option 'groups' is required
  [1]

plot: line log axis rejects zero
  $ rlx -e "rlx.plot.line{series = {{x = {1}, y = {0}}}, yscale = 'log', out = os.getenv('RLX_TEST_TMP') .. '/x.png'}"
  stderr contains: rlx.plot.line: series 1: y[1] = 0 cannot be shown on a log axis: use a linear y axis or drop it
  [1]

plot: line bad marker
  $ rlx -e "rlx.plot.line{series = {{x = {1}, y = {1}, marker = 'blob'}}, out = 'x.png'}"
  stderr contains: rlx.plot.line: series[1] field 'marker' must be one of circle, square, triangle
  [1]

plot: line width wrong type
  $ rlx -e "rlx.plot.line{series = {{x = {1}, y = {1}}}, out = 'x.png', width = 'big'}"
  stderr contains: rlx.plot.line: option 'width' must be an integer >= 100, got "big"
  [1]

plot: ai_vs_batch missing points
  $ rlx -e "rlx.plot.ai_vs_batch{out = 'x.png'}"
  stderr contains: rlx.plot.ai_vs_batch: option 'points' is required
  [1]

plot: ai_vs_batch bad point
  $ rlx -e "rlx.plot.ai_vs_batch{points = {{ai = 1}}, out = 'x.png'}"
  stderr contains: rlx.plot.ai_vs_batch: points[1] needs numbers 'ai' and 'batch'
  [1]

plot: ai_vs_batch unknown model
  $ rlx -e "rlx.plot.ai_vs_batch{points = {{ai = 1, batch = 2, model = 'a'}}, model = 'b', out = 'x.png'}"
  stderr contains: rlx.plot.ai_vs_batch: no points for model 'b'
  [1]

plot: pixel of a missing PNG
  $ rlx -e "rlx.plot.pixel('/nonexistent.png', 1, 1)"
  stderr contains: rlx.plot.pixel: cannot read PNG '/nonexistent.png': give the path of a PNG file
  [1]

plot: figures.draw needs a study
  $ rlx -e "require('rlx.figures').draw(5)"
  stderr contains: rlx.figures.draw: expected a study (rlx.study{...}), got number
  [1]

# One environment: Figure B (one workload across environments) is not drawn, with the reason (issue 34).
plot: figure set from a study database
  $ rlx run tests/e2e/plot/figures.lua
  4 files, 1 warnings, 36 runs
  ai_vs_batch_mobilenet_v2.png=1200x800 ai_vs_batch_resnet50.png=1200x800 roofline_testenv.png=1200x800 throughput_env-testenv.png=1200x800
  stderr contains: variance_fixed_config: one environment (testenv); Figure B compares one workload across environments

plot: experiments dry run lists the default matrix
  $ rlx run experiments/all.lua --dry-run --set db=$RLX_TEST_TMP/plot_dry_v2.db --set label=dry --set precision=fp32,bf16
  stdout contains: scale default: 224x224 synthetic images, warm-up until steady \(at most 10\), then timed until the 95 % CI of the mean iteration time is within ±2 % \(4-50 iterations\), 3 repeats, budget 30\.0 min.*54 runs in the matrix.*dry run: [0-9]+ to run, 0 skipped(, [0-9]+ left out for the budget)?; estimated (re)

plot: experiments unknown scale
  $ rlx run experiments/all.lua --set scale=huge --set db=$RLX_TEST_TMP/plot_dry.db
  stderr starts with: experiments/all.lua: --set scale= must be one of default, full, smoke, got 'huge'\n (esc)
  [2]

# precision=fp32,bf16: the 36 runs on every CPU (the plan leaves bf16 out where it is emulated, as on
# an AMD EPYC without avx512_bf16: 18 runs there).
plot: experiments/all.lua end to end with a stand-in trainer, then resumed
  $ rlx run tests/e2e/plot/all_fake.lua --set scale=smoke --set db=$RLX_TEST_TMP/plot_all.db --set figures=$RLX_TEST_TMP/plot_all_figs --set label=e2e --set precision=fp32,bf16
  stdout ends with:
  cpu: 36 planned, 36 ran \(36 ok, 0 failed\), 0 already done.*roofline_e2e\.png.*first pass trained 36 (re)
  .*cpu: 36 planned, 0 ran \(0 ok, 0 failed\), 36 already done.*second pass trained 0 (re)

# Throughput on a log y axis: the range holds the lower error bar; non-positive y is refused.
plot: throughput yscale log
  $ rlx -e "local l = rlx.plot.throughput{series = {{x = {16, 32}, y = {2, 200}, sd = {0.5, 10}}}, out = os.getenv('RLX_TEST_TMP') .. '/t_log.png', yscale = 'log'} print(l.y.scale, l.y.min <= 1.5, l.y.max >= 210)"
  log\ttrue\ttrue (esc)

plot: throughput yscale log refuses zero
  $ rlx -e "rlx.plot.throughput{series = {{x = {16, 32}, y = {0, 200}}}, out = os.getenv('RLX_TEST_TMP') .. '/t_log0.png', yscale = 'log'}"
  stderr starts with: (command line):1: rlx.plot.throughput: series 1: y[1] = 0 cannot be shown on a log axis: use a linear y axis or drop it\n (esc)
  [1]

plot: throughput bad yscale
  $ rlx -e "rlx.plot.throughput{series = {{x = {16}, y = {2}}}, out = 'x.png', yscale = 'ln'}"
  stderr starts with: (command line):1: rlx.plot.throughput: option 'yscale' must be one of linear, log, got "ln"\n (esc)
  [1]

# Issue 25 finding 11 (messages). Each failed on the old code: the overflowing range said "min nan
# and max nan", a NUL cut the label and the title silently, peak_gbps=0 was named roofs[1].gbps.
plot: values overflowing the axis are named
  $ rlx -e "rlx.plot.throughput{series = {{label = 'a', x = {1, 2}, y = {1e308, -1e308}}}, out = os.getenv('RLX_TEST_TMP') .. '/e2e_huge.png'}"
  stderr starts with: (command line):1: rlx.plot.throughput: values from -1e+308 to 1e+308 cannot be drawn: the axis around them passes the largest number a double holds (about 1.8e308); is one of them wrong?\n (esc)
  [1]

plot: a NUL in a label is refused, not cut
  $ rlx -e "rlx.plot.throughput{series = {{label = 'a\0b', x = {1, 2}, y = {1, 2}}}, out = os.getenv('RLX_TEST_TMP') .. '/e2e_nul.png'}"
  stderr starts with: (command line):1: rlx.plot.throughput: series[1] field 'label' contains a NUL byte (\\0) at byte 2, which would cut the text there: remove it\n (esc)
  [1]

plot: a NUL in a string option is refused, not cut
  $ rlx -e "rlx.plot.throughput{title = 'x\0y', series = {{label = 'a', x = {1, 2}, y = {1, 2}}}, out = os.getenv('RLX_TEST_TMP') .. '/e2e_nul.png'}"
  stderr starts with: (command line):1: rlx.plot.throughput: option 'title' contains a NUL byte (\\0) at byte 2, which would cut it there: remove it\n (esc)
  [1]

plot: roofline peak_gbps=0 is named as given
  $ rlx -e "rlx.plot.roofline{out = 'x.png', peak_gbps = 0, peak_gflops = 100}"
  stderr starts with: (command line):1: rlx.plot.roofline: option 'peak_gbps' must be a positive finite number (GB/s), got 0\n (esc)
  [1]

# Issue 25 finding 1: exit 139 (the chart read the error bars of a series that has none).
plot: throughput on a log y axis without error bars draws
  $ rlx -e "print(rlx.plot.throughput{series = {{label = 'a', x = {1, 2}, y = {1, 2}}}, yscale = 'log', out = os.getenv('RLX_TEST_TMP') .. '/e2e_log_nosd.png'}.out)"
  stdout contains: e2e_log_nosd.png

plot: a layout each model keeps is in the roofline's legend, what varies in the labels
  $ rlx run tests/e2e/plot/legend_layouts.lua
  color_by\tmodel_legend\tmodel (esc)
  mobilenet_v2 (channels_last)\tbs2 32px (esc)
  mobilenet_v2 (channels_last)\tbs2 48px (esc)
  resnet18 (32px, channels_last)\tbs2 (esc)
  resnet18 (32px, channels_last)\tbs4 (esc)
  vgg11 (32px, contiguous)\tbs2 (esc)
