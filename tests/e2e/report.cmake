# End-to-end tests of the report (issue 13): rlx report / study:report from a small real study, from
# a merged two-environment database with hand-worked figures, in headless Chromium, and the errors.
set(R ${CMAKE_SOURCE_DIR}/tests/e2e/report)

rlx_e2e(NAME "report: small real study, cells computed from the stored values" ARGS run ${R}/small_study.lua
  STDOUT "^ok\tfp32 row of 4\\.1\nok\tbf16 row of 4\\.1\nok\tspeedup\nok\tTable 1\nok\ttraffic range\nok\troofline fp32\nok\tno AMP\nok\tone environment\nok\tfootnote\nhtml\treport\\.html\t3\n$")

# Issue 21: a sweep at input 32 and another at input 48 into one database give one row per input,
# each with its own n, and one figure series per input (never averaged together).
rlx_e2e(NAME "report: two input sizes in one database stay apart (rows, n, figure series)"
  ARGS run ${R}/scales.lua
  STDOUT "^(ok\t[^\n]*\n){27}$")
# Issue 21: unsteady and contended runs left out of the means with their reason, CV > 10 % reasons,
# the noise floor table and question 3, and a precision-targeted protocol stated everywhere.
rlx_e2e(NAME "report: unsteady and contended runs, noise floor, protocol statements"
  ARGS run ${R}/flags.lua
  STDOUT "^(ok\t[^\n]*\n){30}$")

add_test(NAME "e2e: report: merged two-environment database, hand-worked figures, HTML tables and images"
  COMMAND bash ${R}/merged.sh $<TARGET_FILE:rlx> ${RLX_TEST_TMP} WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
# Issue 34: the report across real machines (the EPYC default study, a second EPYC VM, an H100 under
# another study name) and with a machine imported from the seed's kit: §6.2, Figure B, Table 2 and the
# environment table, worked out by hand from the stored values.
add_test(NAME "e2e: report: three real machines merged, and one imported from the seed's kit"
  COMMAND bash ${R}/cross_env.sh $<TARGET_FILE:rlx> ${RLX_TEST_TMP} WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
rlx_e2e(NAME "report: --all-studies and --study exclude each other"
  ARGS report ${CMAKE_SOURCE_DIR}/tests/fixtures/studies/epyc-2c-study.db --all-studies --study p1-roofline
  EXIT 2 STDERR "^rlx report: --all-studies and --study NAME exclude each other\n")
# Issue 45: one report over several machines' databases (read-only, the merge's report), the
# bar's checks (§6.2 ratio, Figure B, at most 8 [TO WRITE], a draft per model, hypotheses judged,
# stored and reported bounds agreeing, a CPU AI range), and TRAIN_FACTOR by the kit's own formula.
add_test(NAME "e2e: report: several databases, one report (the EPYC and H200 studies)"
  COMMAND bash ${R}/several_dbs.sh $<TARGET_FILE:rlx> ${RLX_TEST_TMP} WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
# Issue 55 and issue 56 item 2: two machines with one label stay two environments (the old and the
# fresh EPYC), emulation marked (the qemu fixture), effects over every run, point 9's report items,
# `rlx report A.db B.db` as their merge's report slot for slot in either order, no side files left.
add_test(NAME "e2e: report: environments by identity, emulation marked, effects over every run, merge's slot rule"
  COMMAND bash ${R}/identity.sh $<TARGET_FILE:rlx> ${RLX_TEST_TMP} WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
rlx_e2e(NAME "report: environments named by what tells them apart (CPU, torch, id), emulated marked"
  ARGS run ${R}/env_names.lua
  STDOUT "^cpu\tepyc-2c \\[AMD EPYC AVX2\\] \\| epyc-2c \\[AMD EPYC AVX-512\\]\ntorch\tepyc-2c \\[torch 1\\.13\\.0\\] \\| epyc-2c \\[torch 2\\.15\\.0\\]\nid\tepyc-2c \\[env 01234567\\] \\| epyc-2c \\[env abcdef01\\]\nalone\tepyc-2c \\| qemu-arm64-2c \\[emulated\\]\nagain\tepyc-2c \\[AMD EPYC AVX2\\] \\| epyc-2c \\[AMD EPYC AVX-512\\]\n$")
add_test(NAME "e2e: report: TRAIN_FACTOR as the seed kit computes it from rlx's export"
  COMMAND bash ${R}/train_factor.sh $<TARGET_FILE:rlx> ${RLX_TEST_TMP} WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
# Issue 46: the knobs section of a CUDA study, from the H200 study (precision) and a synthetic one
# (cudnn_benchmark; tests/fixtures/studies/README.md).
rlx_e2e(NAME "report: knobs section of a CUDA study" ARGS run ${R}/knobs.lua
  --set fixture=${CMAKE_SOURCE_DIR}/tests/fixtures/studies/h200-default-study.db
  STDOUT "^(ok\t[^\n]*\n){8}$")
rlx_e2e(NAME "report: a hypothesis without a threshold" ARGS -e
  "local s = rlx.study{name = 'x', db = os.getenv('RLX_TEST_TMP') .. '/report_hyp.db'} s:hypothesis{'AMP faster', speedup = {precision = 'amp', over = 'fp32'}}"
  EXIT 1 STDERR "^\\(command line\\):1: study:hypothesis: a speedup needs a threshold: at_least = x \\(the ratio's CI above x\\), at_most = x, or both\n$")
rlx_e2e(NAME "report: a hypothesis testing two things" ARGS -e
  "local s = rlx.study{name = 'x', db = os.getenv('RLX_TEST_TMP') .. '/report_hyp.db'} s:hypothesis{'two', bound = {is = 'memory'}, speedup = {precision = 'amp', over = 'fp32'}}"
  EXIT 1 STDERR "study:hypothesis: test one thing, not bound and speedup: one of speedup")
rlx_e2e(NAME "report: a hypothesis's unknown key" ARGS -e
  "local s = rlx.study{name = 'x', db = os.getenv('RLX_TEST_TMP') .. '/report_hyp.db'} s:hypothesis{'x', speedup = {precision = 'amp', ovr = 'fp32'}, at_least = 2}"
  EXIT 1 STDERR "study:hypothesis: option 'speedup': unknown option 'ovr' \\(valid options: batch, device, env, model, over, precision\\)")
rlx_e2e(NAME "report: a hypothesis without its statement" ARGS -e
  "local s = rlx.study{name = 'x', db = os.getenv('RLX_TEST_TMP') .. '/report_hyp.db'} s:hypothesis{bound = {is = 'memory'}}"
  EXIT 1 STDERR "study:hypothesis: the statement is missing: give it first")
# Issue 52: the data-parallel scaling section (§6.8) on a hand-made 1- and 2-rank study
# (tests/fixtures/studies/dp-handmade.db, to be replaced by a real one), every number worked by hand in
# scaling.lua; and a study without ranks > 1, which has none.
add_test(NAME "e2e: report: data-parallel scaling section, efficiencies and memory table (hand-made fixture)"
  COMMAND bash ${R}/scaling.sh $<TARGET_FILE:rlx> ${RLX_TEST_TMP} dp WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
add_test(NAME "e2e: report: data-parallel scaling section of a real 1- and 2-rank study (dp-cpu-smoke.db)"
  COMMAND bash ${R}/scaling_real.sh $<TARGET_FILE:rlx> ${RLX_TEST_TMP} WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties("e2e: report: data-parallel scaling section of a real 1- and 2-rank study (dp-cpu-smoke.db)"
  PROPERTIES PASS_REGULAR_EXPRESSION "^ok\n$")
add_test(NAME "e2e: report: no scaling section without a run of ranks > 1"
  COMMAND bash ${R}/scaling.sh $<TARGET_FILE:rlx> ${RLX_TEST_TMP} plain WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
rlx_e2e(NAME "report: a ranks hypothesis with an unknown scaling" ARGS -e
  "local s = rlx.study{name = 'x', db = os.getenv('RLX_TEST_TMP') .. '/report_hyp.db'} s:hypothesis{'2 ranks', ranks = {ranks = 2, over = 1, scaling = 'linear'}, at_least = 1.6}"
  EXIT 1 STDERR "^\\(command line\\):1: study:hypothesis: option 'ranks': option 'scaling' must be one of strong, weak, got \"linear\"\n$")
rlx_e2e(NAME "report: with= names a missing database" ARGS -e
  "local s = rlx.study{name = 'x', db = os.getenv('RLX_TEST_TMP') .. '/report_hyp.db'} s:report{dir = os.getenv('RLX_TEST_TMP') .. '/report_hyp', with = os.getenv('RLX_TEST_TMP') .. '/none.db'}"
  EXIT 1 STDERR "rlx\\.report\\.write: option 'with': no database at '.*none\\.db' \\(check the path\\)")
add_test(NAME "e2e: report: report.html in headless Chromium"
  COMMAND bash ${R}/chromium.sh $<TARGET_FILE:rlx> ${RLX_TEST_TMP} WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties("e2e: report: report.html in headless Chromium" PROPERTIES SKIP_RETURN_CODE 77)

rlx_e2e(NAME "report: missing database" ARGS report ${RLX_TEST_TMP}/no-such.db
  EXIT 1 STDERR "^rlx report: no database at '.*no-such\\.db' \\(check the path\\)\n$")
rlx_e2e(NAME "report: missing argument" ARGS report EXIT 2 STDERR "rlx report: ")
rlx_e2e(NAME "report: unknown option of study:report" ARGS -e
  "local s = rlx.study{name = 'x', db = os.getenv('RLX_TEST_TMP') .. '/report_opt.db'} s:report{dri = 'x'}"
  EXIT 1 STDERR "^\\(command line\\):1: rlx\\.report\\.write: unknown option 'dri' \\(valid options: dir, figures, html, hypotheses, quiet, study, title, with\\)\n")
rlx_e2e(NAME "report: study:report with a dot" ARGS -e
  "local s = rlx.study{name = 'x', db = os.getenv('RLX_TEST_TMP') .. '/report_opt.db'} s.report{dir = 'x'}"
  EXIT 1 STDERR "study:report: called with '\\.' instead of ':' \\(use study:report\\{\\.\\.\\.\\}\\)")
rlx_e2e(NAME "report: figures folder outside dir" ARGS -e
  "local s = rlx.study{name = 'x', db = os.getenv('RLX_TEST_TMP') .. '/report_opt.db'} s:report{dir = os.getenv('RLX_TEST_TMP'), figures = '../f'}"
  EXIT 1 STDERR "rlx\\.report\\.write: option 'figures' must be a folder inside dir \\(relative, no '\\.\\.'\\), got '\\.\\./f'")
rlx_e2e(NAME "report: render a Markdown file with a missing image" ARGS -e
  "local p = os.getenv('RLX_TEST_TMP') .. '/report_bad.md' local f = io.open(p, 'w') f:write('# T\\n\\n![x](figures/none.png)\\n') f:close() rlx.report.render{markdown = p}"
  EXIT 1 STDERR "^\\(command line\\):1: rlx\\.report\\.page: cannot read the image 'figures/none\\.png'")
rlx_e2e(NAME "report: html of a non-string" ARGS -e "rlx.report.html(5)"
  EXIT 1 STDERR "^\\(command line\\):1: rlx\\.report\\.html: expected Markdown text \\(a string\\), got number\n")
rlx_e2e(NAME "report: GFM table to HTML" ARGS -e "io.write(rlx.report.html('| a | b |\\n| --- | ---: |\\n| x | 1 |\\n'))"
  STDOUT "<table>\n<thead>\n<tr>\n<th>a</th>\n<th align=\"right\">b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>x</td>\n<td align=\"right\">1</td>\n</tr>\n</tbody>\n</table>\n$")
rlx_e2e(NAME "report: figures as SVG and PDF (issue 15 item 7)" ARGS run ${R}/formats.lua
  STDOUT "^svg\tthroughput_env-e\\.svg\t<svg\npdf\tthroughput_env-e\\.pdf\t%PDF\nbad\trlx\\.figures\\.draw: option 'format' must be one of pdf, png, svg")

# rlx.stats pieces the report rests on. t975 at a fractional df below 30 used to fall through to
# the normal quantile (1.960); it interpolates in 1/df: 3.182 + (2.776 - 3.182)(1/3 - 1/3.5)/(1/12).
rlx_e2e(NAME "report: t975 at a fractional df" ARGS -e "print(string.format('%.3f %.3f', rlx.stats.t975(3.5), rlx.stats.t975(4)))"
  STDOUT "^2\\.950 2\\.776\n$")
# {100,110,120} / {50,55,60}: ratio 2, u_a = u_b = 0.0027548, df 4, half 2.776 x 2 x sqrt(0.0055096) = 0.412.
rlx_e2e(NAME "report: ratio of means with a 95% CI" ARGS -e
  "local r = rlx.stats.ratio_ci95({100, 110, 120}, {50, 55, 60}) print(string.format('%.2f %.1f %.3f %.3f', r.ratio, r.df, r.low, r.high)) print(rlx.stats.ratio_ci95({1}, {2}).low, rlx.stats.ratio_ci95({}, {1}))"
  STDOUT "^2\\.00 4\\.0 1\\.588 2\\.412\nnil\tnil\n$")

rlx_e2e(NAME "report: a CUDA environment gets AMP rows with a 95% CI" ARGS run ${R}/amp.lua STDOUT "^true\ttrue\ttrue\n$")
rlx_e2e(NAME "report: rendering a Markdown file over itself is refused" ARGS -e
  "local p = os.getenv('RLX_TEST_TMP') .. '/report_self.md' local f = io.open(p, 'w') f:write('# T\\n') f:close() rlx.report.render{markdown = p, out = p}"
  EXIT 1 STDERR "rlx\\.report\\.render: the output '.*report_self\\.md' is the same file as the input")
add_test(NAME "e2e: report: counters imported with rlx import-ncu are compared with the estimate"
  COMMAND bash ${R}/imported.sh $<TARGET_FILE:rlx> ${RLX_TEST_TMP} WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})

# Issue 25 finding 11: blank --title, report.md and report.html all or none, one 1e308 value.
add_test(NAME "e2e: report: blank title, a full disk changes neither file, a 1e308 value leaves out one figure"
  COMMAND bash ${R}/messages.sh $<TARGET_FILE:rlx> ${RLX_TEST_TMP} WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})

# Issue 25 finding 4: a hostile study name and paths with spaces, quotes and backticks; every
# command of the report, pasted into bash, runs only rlx with the values whole.
add_test(NAME "e2e: report: every command it prints is shell-quoted"
  COMMAND bash ${R}/quoting.sh $<TARGET_FILE:rlx> ${RLX_TEST_TMP} WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
# Issue 32: one owner per derived number. On the EPYC and H100 fixture studies, rlx runs --summary,
# the report's Table 2, §4.3 and §6.4, rlx export --layout seed and the REPL's frames agree row by row.
add_test(NAME "e2e: report: one owner: runs --summary, report, seed export and frames agree on each row"
  COMMAND bash ${R}/one_owner.sh $<TARGET_FILE:rlx> ${RLX_TEST_TMP} WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
# Issue 55, point 5 and point 6's Lua side: host/launch-bound GPU rows, the ridge's ±5 % floor, FLOP
# ratios with a likely cause, and a GEMM line named with its BLAS (a reference when points exceed
# it), on copies of the H200, EPYC and Zen 5 fixtures; worked by hand in the script.
add_test(NAME "e2e: report: causes from the data (host/launch-bound, ridge range, FLOP causes, GEMM reference)"
  COMMAND bash ${R}/causes.sh $<TARGET_FILE:rlx> ${RLX_TEST_TMP} WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
# Issue 51: two databases of one machine that differ only in their LibTorch (2.15 wheel, Debian's
# 1.13) are two environments in one report, named by the torch version, each framework in its cell.
add_test(NAME "e2e: report: two LibTorch builds on one machine compare like two machines"
  COMMAND bash ${R}/framework_pair.sh $<TARGET_FILE:rlx> ${RLX_TEST_TMP} WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})

# Issue 55 point 4: §4.2's drift verdicts (the noise floor's trend, the configurations' common trend,
# reruns against their kept attempts) on a fixture worked out by hand.
rlx_e2e(NAME "report: drift over the study: the noise floor's and the configurations' trends with their CIs"
  ARGS run tests/e2e/report/drift.lua STDOUT "drift ok\n$")
