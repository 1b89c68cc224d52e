# End-to-end tests of the report (issue 13): rlx report / study:report from a small real study, from
# a merged two-environment database with hand-worked figures, in headless Chromium, and the errors.

report: small real study, cells computed from the stored values
  $ rlx run tests/e2e/report/small_study.lua
  ok\tfp32 row of 4.1 (esc)
  ok\tbf16 row of 4.1 (esc)
  ok\tspeedup (esc)
  ok\tTable 1 (esc)
  ok\ttraffic range (esc)
  ok\troofline fp32 (esc)
  ok\tno AMP (esc)
  ok\tone environment (esc)
  ok\tfootnote (esc)
  html\treport.html\t3 (esc)

# Issue 21: a sweep at input 32 and another at input 48 into one database give one row per input,
# each with its own n, and one figure series per input (never averaged together).
report: two input sizes in one database stay apart (rows, n, figure series)
  $ rlx run tests/e2e/report/scales.lua
  (ok\t[^\n]*\n){27} (re) (no-eol)

# Issue 21: unsteady and contended runs left out of the means with their reason, CV > 10 % reasons,
# the noise floor table and question 3, and a precision-targeted protocol stated everywhere.
report: unsteady and contended runs, noise floor, protocol statements
  $ rlx run tests/e2e/report/flags.lua
  (ok\t[^\n]*\n){30} (re) (no-eol)

report: merged two-environment database, hand-worked figures, HTML tables and images
  $ bash tests/e2e/report/merged.sh "$RLX" $RLX_TEST_TMP

# Issue 34: the report across real machines (the EPYC default study, a second EPYC VM, an H100 under
# another study name) and with a machine imported from the seed's kit: §6.2, Figure B, Table 2 and the
# environment table, worked out by hand from the stored values.
report: three real machines merged, and one imported from the seed's kit
  $ bash tests/e2e/report/cross_env.sh "$RLX" $RLX_TEST_TMP

report: --all-studies and --study exclude each other
  $ rlx report tests/fixtures/studies/epyc-2c-study.db --all-studies --study p1-roofline
  stderr starts with: rlx report: --all-studies and --study NAME exclude each other\n (esc)
  [2]

# Issue 45: one report over several machines' databases (read-only, the merge's report), the
# bar's checks (§6.2 ratio, Figure B, at most 8 [TO WRITE], a draft per model, hypotheses judged,
# stored and reported bounds agreeing, a CPU AI range), and TRAIN_FACTOR by the kit's own formula.
report: several databases, one report (the EPYC and H200 studies)
  $ bash tests/e2e/report/several_dbs.sh "$RLX" $RLX_TEST_TMP

# Issue 55 and issue 56 item 2: two machines with one label stay two environments (the old and the
# fresh EPYC), emulation marked (the qemu fixture), effects over every run, point 9's report items,
# `rlx report A.db B.db` as their merge's report slot for slot in either order, no side files left.
report: environments by identity, emulation marked, effects over every run, merge's slot rule
  $ bash tests/e2e/report/identity.sh "$RLX" $RLX_TEST_TMP

report: environments named by what tells them apart (CPU, torch, id), emulated marked
  $ rlx run tests/e2e/report/env_names.lua
  cpu\tepyc-2c [AMD EPYC AVX2] | epyc-2c [AMD EPYC AVX-512] (esc)
  torch\tepyc-2c [torch 1.13.0] | epyc-2c [torch 2.15.0] (esc)
  id\tepyc-2c [env 01234567] | epyc-2c [env abcdef01] (esc)
  alone\tepyc-2c | qemu-arm64-2c [emulated] (esc)
  again\tepyc-2c [AMD EPYC AVX2] | epyc-2c [AMD EPYC AVX-512] (esc)

report: TRAIN_FACTOR as the seed kit computes it from rlx's export
  $ bash tests/e2e/report/train_factor.sh "$RLX" $RLX_TEST_TMP

# Issue 46: the knobs section of a CUDA study, from the H200 study (precision) and a synthetic one
# (cudnn_benchmark; tests/fixtures/studies/README.md).
report: knobs section of a CUDA study
  $ rlx run tests/e2e/report/knobs.lua --set fixture=tests/fixtures/studies/h200-default-study.db
  (ok\t[^\n]*\n){8} (re) (no-eol)

report: a hypothesis without a threshold
  $ rlx -e "local s = rlx.study{name = 'x', db = os.getenv('RLX_TEST_TMP') .. '/report_hyp.db'} s:hypothesis{'AMP faster', speedup = {precision = 'amp', over = 'fp32'}}"
  stderr: (command line):1: study:hypothesis: a speedup needs a threshold: at_least = x (the ratio's CI above x), at_most = x, or both
  [1]

report: a hypothesis testing two things
  $ rlx -e "local s = rlx.study{name = 'x', db = os.getenv('RLX_TEST_TMP') .. '/report_hyp.db'} s:hypothesis{'two', bound = {is = 'memory'}, speedup = {precision = 'amp', over = 'fp32'}}"
  stderr contains: study:hypothesis: test one thing, not bound and speedup: one of speedup
  [1]

report: a hypothesis's unknown key
  $ rlx -e "local s = rlx.study{name = 'x', db = os.getenv('RLX_TEST_TMP') .. '/report_hyp.db'} s:hypothesis{'x', speedup = {precision = 'amp', ovr = 'fp32'}, at_least = 2}"
  stderr contains: study:hypothesis: option 'speedup': unknown option 'ovr' (valid options: batch, device, env, model, over, precision)
  [1]

report: a hypothesis without its statement
  $ rlx -e "local s = rlx.study{name = 'x', db = os.getenv('RLX_TEST_TMP') .. '/report_hyp.db'} s:hypothesis{bound = {is = 'memory'}}"
  stderr contains: study:hypothesis: the statement is missing: give it first
  [1]

# Issue 52: the data-parallel scaling section (§6.8) on a hand-made 1- and 2-rank study
# (tests/fixtures/studies/dp-handmade.db, to be replaced by a real one), every number worked by hand in
# scaling.lua; and a study without ranks > 1, which has none.
report: data-parallel scaling section, efficiencies and memory table (hand-made fixture)
  $ bash tests/e2e/report/scaling.sh "$RLX" $RLX_TEST_TMP dp

report: data-parallel scaling section of a real 1- and 2-rank study (dp-cpu-smoke.db)
  $ bash tests/e2e/report/scaling_real.sh "$RLX" $RLX_TEST_TMP
  ok
  stderr:

report: no scaling section without a run of ranks > 1
  $ bash tests/e2e/report/scaling.sh "$RLX" $RLX_TEST_TMP plain

report: a ranks hypothesis with an unknown scaling
  $ rlx -e "local s = rlx.study{name = 'x', db = os.getenv('RLX_TEST_TMP') .. '/report_hyp.db'} s:hypothesis{'2 ranks', ranks = {ranks = 2, over = 1, scaling = 'linear'}, at_least = 1.6}"
  stderr: (command line):1: study:hypothesis: option 'ranks': option 'scaling' must be one of strong, weak, got "linear"
  [1]

report: with= names a missing database
  $ rlx -e "local s = rlx.study{name = 'x', db = os.getenv('RLX_TEST_TMP') .. '/report_hyp.db'} s:report{dir = os.getenv('RLX_TEST_TMP') .. '/report_hyp', with = os.getenv('RLX_TEST_TMP') .. '/none.db'}"
  stderr contains: rlx\.report\.write: option 'with': no database at '.*none\.db' \(check the path\) (re)
  [1]

report: report.html in headless Chromium
  ctest: SKIP_RETURN_CODE 77
  $ bash tests/e2e/report/chromium.sh "$RLX" $RLX_TEST_TMP

report: missing database
  $ rlx report $RLX_TEST_TMP/no-such.db
  stderr: rlx report: no database at '.*no-such\.db' \(check the path\) (re)
  [1]

report: missing argument
  $ rlx report
  stderr contains: rlx report:\x20 (esc)
  [2]

report: unknown option of study:report
  $ rlx -e "local s = rlx.study{name = 'x', db = os.getenv('RLX_TEST_TMP') .. '/report_opt.db'} s:report{dri = 'x'}"
  stderr starts with: (command line):1: rlx.report.write: unknown option 'dri' (valid options: dir, figures, html, hypotheses, quiet, study, title, with)\n (esc)
  [1]

report: study:report with a dot
  $ rlx -e "local s = rlx.study{name = 'x', db = os.getenv('RLX_TEST_TMP') .. '/report_opt.db'} s.report{dir = 'x'}"
  stderr contains: study:report: called with '.' instead of ':' (use study:report{...})
  [1]

report: figures folder outside dir
  $ rlx -e "local s = rlx.study{name = 'x', db = os.getenv('RLX_TEST_TMP') .. '/report_opt.db'} s:report{dir = os.getenv('RLX_TEST_TMP'), figures = '../f'}"
  stderr contains: rlx.report.write: option 'figures' must be a folder inside dir (relative, no '..'), got '../f'
  [1]

report: render a Markdown file with a missing image
  $ rlx -e "local p = os.getenv('RLX_TEST_TMP') .. '/report_bad.md' local f = io.open(p, 'w') f:write('# T\n\n![x](figures/none.png)\n') f:close() rlx.report.render{markdown = p}"
  stderr starts with: (command line):1: rlx.report.page: cannot read the image 'figures/none.png'
  [1]

report: html of a non-string
  $ rlx -e 'rlx.report.html(5)'
  stderr starts with: (command line):1: rlx.report.html: expected Markdown text (a string), got number\n (esc)
  [1]

report: GFM table to HTML
  $ rlx -e "io.write(rlx.report.html('| a | b |\n| --- | ---: |\n| x | 1 |\n'))"
  stdout ends with:
  <table>
  <thead>
  <tr>
  <th>a</th>
  <th align="right">b</th>
  </tr>
  </thead>
  <tbody>
  <tr>
  <td>x</td>
  <td align="right">1</td>
  </tr>
  </tbody>
  </table>

report: figures as SVG and PDF (issue 15 item 7)
  $ rlx run tests/e2e/report/formats.lua
  stdout starts with:
  svg\tthroughput_env-e.svg\t<svg (esc)
  pdf\tthroughput_env-e.pdf\t%PDF (esc)
  bad\trlx.figures.draw: option 'format' must be one of pdf, png, svg (esc)

# rlx.stats pieces the report rests on. t975 at a fractional df below 30 used to fall through to
# the normal quantile (1.960); it interpolates in 1/df: 3.182 + (2.776 - 3.182)(1/3 - 1/3.5)/(1/12).
report: t975 at a fractional df
  $ rlx -e "print(string.format('%.3f %.3f', rlx.stats.t975(3.5), rlx.stats.t975(4)))"
  2.950 2.776

# {100,110,120} / {50,55,60}: ratio 2, u_a = u_b = 0.0027548, df 4, half 2.776 x 2 x sqrt(0.0055096) = 0.412.
report: ratio of means with a 95% CI
  $ rlx -e "local r = rlx.stats.ratio_ci95({100, 110, 120}, {50, 55, 60}) print(string.format('%.2f %.1f %.3f %.3f', r.ratio, r.df, r.low, r.high)) print(rlx.stats.ratio_ci95({1}, {2}).low, rlx.stats.ratio_ci95({}, {1}))"
  2.00 4.0 1.588 2.412
  nil\tnil (esc)

report: a CUDA environment gets AMP rows with a 95% CI
  $ rlx run tests/e2e/report/amp.lua
  true\ttrue\ttrue (esc)

report: rendering a Markdown file over itself is refused
  $ rlx -e "local p = os.getenv('RLX_TEST_TMP') .. '/report_self.md' local f = io.open(p, 'w') f:write('# T\n') f:close() rlx.report.render{markdown = p, out = p}"
  stderr contains: rlx\.report\.render: the output '.*report_self\.md' is the same file as the input (re)
  [1]

report: counters imported with rlx import-ncu are compared with the estimate
  $ bash tests/e2e/report/imported.sh "$RLX" $RLX_TEST_TMP

# Issue 25 finding 11: blank --title, report.md and report.html all or none, one 1e308 value.
report: blank title, a full disk changes neither file, a 1e308 value leaves out one figure
  $ bash tests/e2e/report/messages.sh "$RLX" $RLX_TEST_TMP

# Issue 25 finding 4: a hostile study name and paths with spaces, quotes and backticks; every
# command of the report, pasted into bash, runs only rlx with the values whole.
report: every command it prints is shell-quoted
  $ bash tests/e2e/report/quoting.sh "$RLX" $RLX_TEST_TMP

# Issue 32: one owner per derived number. On the EPYC and H100 fixture studies, rlx runs --summary,
# the report's Table 2, §4.3 and §6.4, rlx export --layout seed and the REPL's frames agree row by row.
report: one owner: runs --summary, report, seed export and frames agree on each row
  $ bash tests/e2e/report/one_owner.sh "$RLX" $RLX_TEST_TMP

# Issue 55, point 5 and point 6's Lua side: host/launch-bound GPU rows, the ridge's ±5 % floor, FLOP
# ratios with a likely cause, and a GEMM line named with its BLAS (a reference when points exceed
# it), on copies of the H200, EPYC and Zen 5 fixtures; worked by hand in the script.
report: causes from the data (host/launch-bound, ridge range, FLOP causes, GEMM reference)
  $ bash tests/e2e/report/causes.sh "$RLX" $RLX_TEST_TMP

# Issue 51: two databases of one machine that differ only in their LibTorch (2.15 wheel, Debian's
# 1.13) are two environments in one report, named by the torch version, each framework in its cell.
report: two LibTorch builds on one machine compare like two machines
  $ bash tests/e2e/report/framework_pair.sh "$RLX" $RLX_TEST_TMP

# Issue 55 point 4: §4.2's drift verdicts (the noise floor's trend, the configurations' common trend,
# reruns against their kept attempts) on a fixture worked out by hand.
report: drift over the study: the noise floor's and the configurations' trends with their CIs
  $ rlx run tests/e2e/report/drift.lua
  stdout ends with: drift ok

# The fresh-clone study of 2026-12-02 (tests/fixtures/studies/README.md): bf16 ran MobileNetV2 at
# 0.97x fp32's, so §4.1's draft may not say lower precision "raises" images/s.
report: the precision draft says raises only when every pair is faster
  $ cp tests/fixtures/studies/zen5-fresh-study.db $RLX_TEST_TMP/zen5_fresh.db && rlx report $RLX_TEST_TMP/zen5_fresh.db --out $RLX_TEST_TMP/zen5_fresh --quiet --no-html && grep -o 'Lower precision [^(]*([^)]*) ([^)]*) to [0-9.]*×' $RLX_TEST_TMP/zen5_fresh/report.md
  Lower precision moves images/s from 0.97× (95 % CI [0.73, 1.21]) (epyc-2c, mobilenet_v2, batch 16) to 1.94×
