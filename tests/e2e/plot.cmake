# End-to-end tests of rlx.plot, rlx.figures and experiments/ (issue 7). Charts are drawn to
# PNG/SVG/PDF under RLX_TEST_TMP and PNG pixels sampled where the returned axes put things.
set(P ${CMAKE_SOURCE_DIR}/tests/e2e/plot)
set(PT ${CMAKE_BINARY_DIR}/test-tmp)

rlx_e2e(NAME "plot: every chart to png, svg and pdf; pixels where the axes say" ARGS run ${P}/charts.lua
  STDOUT "^png\tpng\tpng\t1200x800\nsvg\tsvg\tsvg\t1200x800\npdf\tpdf\tpdf\t1200x800\nroof\ttrue\nceiling\ttrue\npoint1\ttrue\npoint3\ttrue\nridge\t10\tabove\tfalse\nticks\t0\\.1 1 10 100 1k\nfrom peaks\tDRAM,L2,fp16 tensor,fp32\npng\tpng\tpng\tpng\tpng\tpng\t1200\t800\tlog\t0\tpng\nsvg\tsvg\tsvg\tsvg\tsvg\tsvg\t1200\t800\tlog\t0\tsvg\npdf\tpdf\tpdf\tpdf\tpdf\tpdf\t1200\t800\tlog\t0\tpdf\nthroughput marker\ttrue\tymin\t0\n$")
rlx_e2e(NAME "plot: roofline above-roof point is flagged" ARGS -e
  "local i = rlx.plot.roofline{points = {{ai = 1, gflops = 50, model = 'm', precision = 'fp32'}}, peak_gflops = 100, peak_gbps = 10, out = os.getenv('RLX_TEST_TMP') .. '/e2e_above.png'} print(i.above_roof[1], i.ridge_ai)"
  STDOUT "^true\t10\n$")
rlx_e2e(NAME "plot: roofline wrong type" ARGS -e "rlx.plot.roofline{points = 5, out = 'x.png', peak_gflops = 1, peak_gbps = 1}"
  EXIT 1 STDERR "^\\(command line\\):1: rlx\\.plot\\.roofline: option 'points' must be a table, got 5\n")
rlx_e2e(NAME "plot: roofline missing out" ARGS -e "rlx.plot.roofline{peak_gflops = 1}"
  EXIT 1 STDERR "^\\(command line\\):1: rlx\\.plot\\.roofline: option 'out' is required \\(a string\\)\n")
rlx_e2e(NAME "plot: roofline unknown option" ARGS -e "rlx.plot.roofline{colour = 1, out = 'x.png'}"
  EXIT 1 STDERR "^\\(command line\\):1: rlx\\.plot\\.roofline: unknown option 'colour' \\(valid options: arrows, ceilings, color_by, ")
rlx_e2e(NAME "plot: roofline without roofs" ARGS -e "rlx.plot.roofline{out = 'x.png', peak_gflops = 1}"
  EXIT 1 STDERR "rlx\\.plot\\.roofline: no memory roof: pass peak_bw= and peak_flops= \\(byte/s, FLOP/s\\)")
rlx_e2e(NAME "plot: roofline peak_flops in GFLOP/s by mistake" ARGS -e "rlx.plot.roofline{out = 'x.png', peak_flops = 100, peak_gbps = 1}"
  EXIT 1 STDERR "peak_flops is in FLOP/s and 100 looks like GFLOP/s: pass peak_gflops=100 instead")
rlx_e2e(NAME "plot: roofline bad point" ARGS -e "rlx.plot.roofline{out = os.getenv('RLX_TEST_TMP') .. '/x.png', points = {{ai = -1, gflops = 1}}, peak_gflops = 100, peak_gbps = 1}"
  EXIT 1 STDERR "^\\(command line\\):1: rlx\\.plot\\.roofline: points\\[1\\] field 'ai' must be a positive finite number, got -1\n")
rlx_e2e(NAME "plot: C++ exception path names the file" ARGS -e "rlx.plot.line{series = {{x = {1}, y = {1}}}, out = '/nonexistent-dir/x.png'}"
  EXIT 1 STDERR "^\\(command line\\):1: rlx\\.plot\\.line: cannot write figure '/nonexistent-dir/x\\.png': the directory '/nonexistent-dir' does not exist\n")
rlx_e2e(NAME "plot: unknown extension" ARGS -e "rlx.plot.line{series = {{x = {1}, y = {1}}}, out = 'x.jpg'}"
  EXIT 1 STDERR "rlx\\.plot\\.line: cannot tell the image format of 'x\\.jpg': end the file name with \\.png, \\.svg or \\.pdf")
rlx_e2e(NAME "plot: throughput wrong type" ARGS -e "rlx.plot.throughput{series = 5, out = 'x.png'}"
  EXIT 1 STDERR "^\\(command line\\):1: rlx\\.plot\\.throughput: option 'series' must be an array of tables, got number\n")
rlx_e2e(NAME "plot: throughput missing series" ARGS -e "rlx.plot.throughput{out = 'x.png'}"
  EXIT 1 STDERR "rlx\\.plot\\.throughput: option 'series' is required \\(an array of \\{label=, x=, y=, sd=\\}\\)")
rlx_e2e(NAME "plot: throughput unknown option" ARGS -e "rlx.plot.throughput{series = {}, out = 'x.png', bogus = 1}"
  EXIT 1 STDERR "rlx\\.plot\\.throughput: unknown option 'bogus' \\(valid options: dpi, grid, height, ")
rlx_e2e(NAME "plot: throughput mismatched series" ARGS -e "rlx.plot.throughput{series = {{x = {1, 2}, y = {1}}}, out = os.getenv('RLX_TEST_TMP') .. '/x.png'}"
  EXIT 1 STDERR "rlx\\.plot\\.throughput: series 1 has 2 x values and 1 y values: give one y per x")
rlx_e2e(NAME "plot: variability wrong type" ARGS -e "rlx.plot.variability{groups = 'a', out = 'x.png'}"
  EXIT 1 STDERR "rlx\\.plot\\.variability: option 'groups' must be an array of tables, got string")
rlx_e2e(NAME "plot: variability empty group" ARGS -e "rlx.plot.variability{groups = {{label = 'a', values = {}}}, out = os.getenv('RLX_TEST_TMP') .. '/x.png'}"
  EXIT 1 STDERR "rlx\\.plot\\.variability: group 'a' has no values")
rlx_e2e(NAME "plot: variability missing groups" ARGS -e "rlx.plot.variability{out = 'x.png'}"
  EXIT 1 STDERR "rlx\\.plot\\.variability: option 'groups' is required")
rlx_e2e(NAME "plot: line log axis rejects zero" ARGS -e "rlx.plot.line{series = {{x = {1}, y = {0}}}, yscale = 'log', out = os.getenv('RLX_TEST_TMP') .. '/x.png'}"
  EXIT 1 STDERR "rlx\\.plot\\.line: series 1: y\\[1\\] = 0 cannot be shown on a log axis: use a linear y axis or drop it")
rlx_e2e(NAME "plot: line bad marker" ARGS -e "rlx.plot.line{series = {{x = {1}, y = {1}, marker = 'blob'}}, out = 'x.png'}"
  EXIT 1 STDERR "rlx\\.plot\\.line: series\\[1\\] field 'marker' must be one of circle, square, triangle")
rlx_e2e(NAME "plot: line width wrong type" ARGS -e "rlx.plot.line{series = {{x = {1}, y = {1}}}, out = 'x.png', width = 'big'}"
  EXIT 1 STDERR "rlx\\.plot\\.line: option 'width' must be an integer >= 100, got \"big\"")
rlx_e2e(NAME "plot: ai_vs_batch missing points" ARGS -e "rlx.plot.ai_vs_batch{out = 'x.png'}"
  EXIT 1 STDERR "rlx\\.plot\\.ai_vs_batch: option 'points' is required")
rlx_e2e(NAME "plot: ai_vs_batch bad point" ARGS -e "rlx.plot.ai_vs_batch{points = {{ai = 1}}, out = 'x.png'}"
  EXIT 1 STDERR "rlx\\.plot\\.ai_vs_batch: points\\[1\\] needs numbers 'ai' and 'batch'")
rlx_e2e(NAME "plot: ai_vs_batch unknown model" ARGS -e "rlx.plot.ai_vs_batch{points = {{ai = 1, batch = 2, model = 'a'}}, model = 'b', out = 'x.png'}"
  EXIT 1 STDERR "rlx\\.plot\\.ai_vs_batch: no points for model 'b'")
rlx_e2e(NAME "plot: pixel of a missing PNG" ARGS -e "rlx.plot.pixel('/nonexistent.png', 1, 1)"
  EXIT 1 STDERR "rlx\\.plot\\.pixel: cannot read PNG '/nonexistent\\.png': give the path of a PNG file")
rlx_e2e(NAME "plot: figures.draw needs a study" ARGS -e "require('rlx.figures').draw(5)"
  EXIT 1 STDERR "rlx\\.figures\\.draw: expected a study \\(rlx\\.study\\{\\.\\.\\.\\}\\), got number")
# One environment: Figure B (one workload across environments) is not drawn, with the reason (issue 34).
rlx_e2e(NAME "plot: figure set from a study database" ARGS run ${P}/figures.lua
  STDOUT "^4 files, 1 warnings, 36 runs\nai_vs_batch_mobilenet_v2\\.png=1200x800 ai_vs_batch_resnet50\\.png=1200x800 roofline_testenv\\.png=1200x800 throughput_env-testenv\\.png=1200x800\n$"
  STDERR "variance_fixed_config: one environment \\(testenv\\); Figure B compares one workload across environments")
rlx_e2e(NAME "plot: experiments dry run lists the default matrix" ARGS run experiments/all.lua --dry-run
  --set db=${PT}/plot_dry_v2.db --set label=dry --set precision=fp32,bf16
  STDOUT "scale default: 224x224 synthetic images, warm-up until steady \\(at most 10\\), then timed until the 95 % CI of the mean iteration time is within ±2 % \\(4-50 iterations\\), 3 repeats, budget 30\\.0 min.*54 runs in the matrix.*dry run: [0-9]+ to run, 0 skipped(, [0-9]+ left out for the budget)?\\x3b estimated")
rlx_e2e(NAME "plot: experiments unknown scale" ARGS run experiments/all.lua --set scale=huge --set db=${PT}/plot_dry.db
  EXIT 2 STDERR "^experiments/all\\.lua: --set scale= must be one of default, full, smoke, got 'huge'\n")
# precision=fp32,bf16: the 36 runs on every CPU (the plan leaves bf16 out where it is emulated, as on
# an AMD EPYC without avx512_bf16: 18 runs there).
rlx_e2e(NAME "plot: experiments/all.lua end to end with a stand-in trainer, then resumed" ARGS run ${P}/all_fake.lua
  --set scale=smoke --set db=${PT}/plot_all.db --set figures=${PT}/plot_all_figs --set label=e2e --set precision=fp32,bf16
  STDOUT "cpu: 36 planned, 36 ran \\(36 ok, 0 failed\\), 0 already done.*roofline_e2e\\.png.*first pass trained 36\n.*cpu: 36 planned, 0 ran \\(0 ok, 0 failed\\), 36 already done.*second pass trained 0\n$")

# Throughput on a log y axis: the range holds the lower error bar; non-positive y is refused.
rlx_e2e(NAME "plot: throughput yscale log"
  ARGS -e "local l = rlx.plot.throughput{series = {{x = {16, 32}, y = {2, 200}, sd = {0.5, 10}}}, out = os.getenv('RLX_TEST_TMP') .. '/t_log.png', yscale = 'log'} print(l.y.scale, l.y.min <= 1.5, l.y.max >= 210)"
  STDOUT "^log\ttrue\ttrue\n$")
rlx_e2e(NAME "plot: throughput yscale log refuses zero"
  ARGS -e "rlx.plot.throughput{series = {{x = {16, 32}, y = {0, 200}}}, out = os.getenv('RLX_TEST_TMP') .. '/t_log0.png', yscale = 'log'}"
  EXIT 1 STDERR "^\\(command line\\):1: rlx\\.plot\\.throughput: series 1: y\\[1\\] = 0 cannot be shown on a log axis: use a linear y axis or drop it\n")
rlx_e2e(NAME "plot: throughput bad yscale"
  ARGS -e "rlx.plot.throughput{series = {{x = {16}, y = {2}}}, out = 'x.png', yscale = 'ln'}"
  EXIT 1 STDERR "^\\(command line\\):1: rlx\\.plot\\.throughput: option 'yscale' must be one of linear, log, got \"ln\"\n")

# Issue 25 finding 11 (messages). Each failed on the old code: the overflowing range said "min nan
# and max nan", a NUL cut the label and the title silently, peak_gbps=0 was named roofs[1].gbps.
rlx_e2e(NAME "plot: values overflowing the axis are named" ARGS -e
  "rlx.plot.throughput{series = {{label = 'a', x = {1, 2}, y = {1e308, -1e308}}}, out = os.getenv('RLX_TEST_TMP') .. '/e2e_huge.png'}"
  EXIT 1 STDERR "^\\(command line\\):1: rlx\\.plot\\.throughput: values from -1e\\+308 to 1e\\+308 cannot be drawn: the axis around them passes the largest number a double holds \\(about 1\\.8e308\\)\\x3b is one of them wrong\\?\n")
rlx_e2e(NAME "plot: a NUL in a label is refused, not cut" ARGS -e
  "rlx.plot.throughput{series = {{label = 'a\\0b', x = {1, 2}, y = {1, 2}}}, out = os.getenv('RLX_TEST_TMP') .. '/e2e_nul.png'}"
  EXIT 1 STDERR "^\\(command line\\):1: rlx\\.plot\\.throughput: series\\[1\\] field 'label' contains a NUL byte \\(\\\\0\\) at byte 2, which would cut the text there: remove it\n")
rlx_e2e(NAME "plot: a NUL in a string option is refused, not cut" ARGS -e
  "rlx.plot.throughput{title = 'x\\0y', series = {{label = 'a', x = {1, 2}, y = {1, 2}}}, out = os.getenv('RLX_TEST_TMP') .. '/e2e_nul.png'}"
  EXIT 1 STDERR "^\\(command line\\):1: rlx\\.plot\\.throughput: option 'title' contains a NUL byte \\(\\\\0\\) at byte 2, which would cut it there: remove it\n")
rlx_e2e(NAME "plot: roofline peak_gbps=0 is named as given" ARGS -e
  "rlx.plot.roofline{out = 'x.png', peak_gbps = 0, peak_gflops = 100}"
  EXIT 1 STDERR "^\\(command line\\):1: rlx\\.plot\\.roofline: option 'peak_gbps' must be a positive finite number \\(GB/s\\), got 0\n")
# Issue 25 finding 1: exit 139 (the chart read the error bars of a series that has none).
rlx_e2e(NAME "plot: throughput on a log y axis without error bars draws" ARGS -e
  "print(rlx.plot.throughput{series = {{label = 'a', x = {1, 2}, y = {1, 2}}}, yscale = 'log', out = os.getenv('RLX_TEST_TMP') .. '/e2e_log_nosd.png'}.out)"
  STDOUT "e2e_log_nosd\\.png")
rlx_e2e(NAME "plot: a layout each model keeps is in the roofline's legend, what varies in the labels" ARGS run ${P}/legend_layouts.lua
  STDOUT "^color_by\tmodel_legend\tmodel\nmobilenet_v2 \\(channels_last\\)\tbs2 32px\nmobilenet_v2 \\(channels_last\\)\tbs2 48px\nresnet18 \\(32px, channels_last\\)\tbs2\nresnet18 \\(32px, channels_last\\)\tbs4\nvgg11 \\(32px, contiguous\\)\tbs2\n$")
