-- Unsteady and contended runs, the noise floor and precision-targeted protocols in the report (issue
-- 21 items 3 and 4). Runs are stored through study:store_run with hand-made results carrying the
-- fields of issue 21 (floor_gflops, other_cpu, cpu_share, contended, stop_reason, ci_rel,
-- warmup_used), so every expected cell below is worked out by hand in its comment.
local tmp = os.getenv("RLX_TEST_TMP") or "/tmp"
local dir = tmp .. "/report_flags"
os.execute("rm -rf '" .. dir .. "'")

local function check(what, ok, detail)
  print((ok and "ok\t" or "FAIL\t") .. what .. (ok and "" or ("\t" .. tostring(detail))))
end
local function read(path)
  local f = assert(io.open(path))
  local t = f:read("*a")
  f:close()
  return t
end

-- Study 1: resnet18 fp32 at 32x32, 1 warm-up + 5 timed iterations, 3 repeats per batch size.
-- Per batch: images/s, floor GFLOP/s, other CPU cores, and the flags of each repeat.
local ROWS = {
  -- CV 10/60 = 16.7 %; the floor varied 10/50 = 20 % >= 16.7/2: the machine's noise floor.
  [2] = {ips = {50, 60, 70}, floor = {40, 50, 60}, other = {0.1, 0.1, 0.1}},
  -- Repeat 3 unsteady (drift +12 %): left out, 100 and 110 give 105 ± 7 (SD 7.07).
  [4] = {ips = {100, 110, 150}, floor = {50, 50, 50}, other = {0.1, 0.1, 0.1}, unsteady = {[3] = 0.12}},
  -- Repeat 3 contended (1.3 other cores, 60 % CPU share): left out, 205 ± 7.
  [8] = {ips = {200, 210, 100}, floor = {50, 50, 50}, other = {0.1, 0.1, 1.3}, contended = {[3] = true}},
  -- Every repeat unsteady: all kept, 360 ± 60, marked; CV 16.7 % because of them.
  [16] = {ips = {300, 360, 420}, floor = {50, 50, 50}, other = {0.1, 0.1, 0.1},
    unsteady = {[1] = 0.10, [2] = 0.20, [3] = -0.15}},
  -- CV 100/500 = 20 %, steady, floor CV 0.5/50 = 1 %, others at most 0.3 cores: unknown.
  [32] = {ips = {400, 500, 600}, floor = {49.5, 50, 50.5}, other = {0.1, 0.2, 0.3}},
}
local s = rlx.study{name = "flags", db = dir .. "/flags.db", label = "flagenv"}
for _, b in ipairs({2, 4, 8, 16, 32}) do
  local row = ROWS[b]
  for n = 1, 3 do
    local ips = row.ips[n]
    local drift = (row.unsteady or {})[n]
    local contended = (row.contended or {})[n] == true
    s:store_run({model = "resnet18", precision = "fp32", batch = b, device = "cpu", warmup = 1, iters = 5, input = 32,
      classes = 10}, {ok = true, images_per_s = ips, iter_s = {mean = b / ips, sd = 0}, seconds = 5 * b / ips,
      device = "cpu", stability = {stable = drift == nil, drift = drift or 0.01, cv = 0.02},
      floor_gflops = row.floor[n], other_cpu = row.other[n], cpu_share = contended and 0.6 or 0.98,
      contended = contended and 1 or 0, stop_reason = "fixed", input = 32}, {run = n})
  end
end
local out = s:report{dir = dir .. "/out", quiet = true}
local md = read(out.markdown)
local function has(what, text) check(what, md:find(text, 1, true) ~= nil, text) end

-- §4.1: n counts the runs averaged; Left out names the others and why. Iteration = batch / images/s:
-- bs2 40, 33.33, 28.57 ms -> 34.0 ± 5.7; bs4 40, 36.36 -> 38.2 ± 2.6; bs8 40, 38.10 -> 39.0 ± 1.3;
-- bs16 53.33, 44.44, 38.10 -> 45.3 ± 7.7.
has("4.1 all kept", "| flagenv | resnet18 | fp32 | 2 | 3 | 60.0 ± 10.0 | 34.0 ± 5.7 | - |")
-- A row whose mean leaves runs out also gives the mean of all of them (issue 30): (100 + 110 + 150) / 3
-- = 120, (200 + 210 + 100) / 3 = 170.
has("4.1 unsteady left out", "| flagenv | resnet18 | fp32 | 4 | 2 | 105 ± 7 | 38.2 ± 2.6 | " ..
  "1 of 3 runs unsteady (drift +12.0 %), left out; all 3 runs: 120 images/s |")
has("4.1 contended left out", "| flagenv | resnet18 | fp32 | 8 | 2 | 205 ± 7 | 39.0 ± 1.3 | " ..
  "1 of 3 runs contended (1.3 other cores, CPU share 60 %), left out; all 3 runs: 170 images/s |")
has("4.1 every run unsteady", "| flagenv | resnet18 | fp32 | 16 | 3 | 360 ± 60 † | 45.3 ± 7.7 † | " ..
  "3 of 3 runs unsteady (drift +10.0 %, +20.0 %, -15.0 %): none steady, all kept, marked † |")
-- §4.2: the reason of each row above 10 % CV.
has("CV reason: noise floor", "| flagenv | resnet18 | fp32 | 2 | 3 | 16.67 % | 0.00 % | machine noise floor " ..
  "(the FMA probe before these runs varied 20.0 %) |")
has("CV below the limit", "| flagenv | resnet18 | fp32 | 4 | 2 | 6.73 % | 0.00 % | - |")
has("CV reason: unsteady", "| flagenv | resnet18 | fp32 | 16 | 3 | 16.67 % † | 0.00 % | unsteady runs (none of the " ..
  "row's runs steady) |")
has("CV reason: unknown", "| flagenv | resnet18 | fp32 | 32 | 3 | 20.00 % | 0.00 % | unknown (runs steady, noise " ..
  "floor 1.0 %, other processes ≤ 0.3 cores) |")
-- The noise table. Floors over the 15 runs: min 40, median 50, max 60; mean 50, squared deviations
-- 100 + 100 + 0.25 + 0.25 = 200.5, SD √(200.5/14) = 3.784, CV 7.6 %. CVs across repeats: 16.67,
-- 6.73 (7.071/105), 3.45 (7.071/205), 16.67, 20.0: median 16.7 %. Steady 11 of 15 (73 %),
-- contended 1 of 15, every run stopped "fixed".
has("noise table", "| flagenv | 40.0 / 50.0 / 60.0 | 7.6 % | 16.7 % | 11 / 15 (73 %) | 1 / 15 | fixed 15 |")
-- Question 3: 7.568 / 16.667 = 0.454 -> part of it.
has("question 3", "- flagenv: the machine's noise floor varied 7.6 % (CV of the FMA probe over 15 runs) against a " ..
  "median CV across repeats of 16.7 %, so the machine accounts for part of it (45 % of the median CV) and the " ..
  "workload for the rest.")
-- Table 2: n of the row's runs, the 95 % CI of the mean (issue 30): 105 ± t975(1) x 7.0711 / √2 =
-- 105 ± 12.706 x 5 = 105 ± 63.53: 41-169, ±60.5 % of 105; its Stable column.
has("Table 2", "| flagenv | resnet18 | fp32 | 4 | 2 of 3 | 105 ± 7 | 41–169 (±60.5 %) | - | - | - | 2/3 | [^R2] |")
-- The legend names the kinds that can happen to these runs: no protocol here accepts a CI
-- (config.accept_ci), so none can be imprecise and the legend does not say it.
has("mark legend", "† Every run of the row was unsteady or contended:")
has("limitations: flags", "- 5 of 15 ok runs flagged, left out of every mean: 4 unsteady, 1 contended (rows whose " ..
  "every run was flagged keep them, marked †; §4.1).")
-- Each kind counted by its name (a default study's §8 once called 10 imprecise runs "contended"):
-- run 1 clean; run 2 imprecise (CI 6 % > the 5 % its protocol accepts); run 3 unsteady and
-- imprecise; run 4 contended; run 5 at exactly 5 %, accepted. 3 of 5 flagged, 4 flags.
local bm = require("rlx.report.backmatter")
local function run(x) return {config = {accept_ci = 0.05}, result = x} end
check("flag text by kind", bm.flag_text{run{ci_rel = 0.01}, run{ci_rel = 0.06},
  run{ci_rel = 0.08, stable = false, drift = 0.2}, run{ci_rel = 0.02, contended = true}, run{ci_rel = 0.05}} ==
  "3 of 5 ok runs flagged, left out of every mean: 1 unsteady, 2 imprecise (95 % CI wider than their protocol " ..
  "accepts), 1 contended; a run can be more than one (rows whose every run was flagged keep them, marked †; §4.1)",
  bm.flag_text{run{ci_rel = 0.06}})
check("flag text: none flagged", bm.flag_text{run{ci_rel = 0.01}} == nil)
has("limitations: scale", "- Scale: 32x32 synthetic images (15 runs). That is 1/49 of the seed's 224x224 pixels")

-- Figure A: means over the used runs, n per point; the fully unsteady point is marked, not its
-- series, and the points resting on 2 of 3 runs say so (issue 34).
local fig = s:figures{dir = dir .. "/fig", quiet = true}
local A = fig.files[1].plot
local sr = A.series[1]
check("A: one series", #A.series == 1 and sr.label == "resnet18 fp32", sr.label)
check("A: marks on points", table.concat(sr.labels, ",") == ",n=2/3,n=2/3,†,", table.concat(sr.labels, ","))
check("A: means of the used runs", table.concat(sr.y, ",") == "60,105,205,360,500", table.concat(sr.y, ","))
check("A: n per point", table.concat(sr.n, ",") == "3,2,2,3,3", table.concat(sr.n, ","))
check("A: subtitle", A.subtitle == "mean ± 1 SD over n = 2-3 repeats per point (2 unsteady or contended " ..
  "left out; n=k/m: k of a point's m runs averaged); † = a point none of whose repeats was steady and precise (all " ..
  "kept); 32x32 synthetic, " ..
  "1 warm-up + 5 timed iters", A.subtitle)
s:close()

-- Study 2: precision-targeted runs at 224x224: warm-up until steady (1, 2, 3 iterations used),
-- then timed until the 95 % CI is within ±2 %, capped at 100 iterations or 60 s. Timed
-- iterations = seconds / mean iteration time: 3, 40, 100.
local c = rlx.study{name = "ci", db = dir .. "/ci.db", label = "cienv"}
local RUNS = {{warm = 1, iters = 3, stop = "ci", ci = 0.018}, {warm = 2, iters = 40, stop = "ci", ci = 0.019},
  {warm = 3, iters = 100, stop = "max_iters", ci = 0.031}}
for n, x in ipairs(RUNS) do
  c:store_run({model = "resnet18", precision = "fp32", batch = 4, device = "cpu", input = 224, target_ci = 0.02,
    max_iters = 100, max_seconds = 60}, {ok = true, images_per_s = 40, iter_s = {mean = 0.1, sd = 0.001},
    seconds = x.iters * 0.1, device = "cpu", warmup_used = x.warm, stop_reason = x.stop, ci_rel = x.ci,
    target_ci = 0.02, input = 224}, {run = n})
end
local cout = c:report{dir = dir .. "/ci", quiet = true}
local cmd = read(cout.markdown)
local function chas(what, text) check(what, cmd:find(text, 1, true) ~= nil, text) end
-- The precision reached beside the one asked (issue 30): CIs 1.8, 1.9 and 3.1 %, median 1.9 %; one run
-- (3.1 %) above its ±2 % target.
chas("run matrix protocol", "| cienv | cpu | 224x224 synthetic | resnet18 | fp32 | 4 | auto (1-3) / until 95 % CI ≤ 2 % " ..
  "(3-100) | ±1.8-3.1 % (median ±1.9 %) | 3 |")
chas("design protocol", "Protocol: warm-up until steady (1-3 iterations), then timed until the 95 % CI of the mean " ..
  "iteration time was within ±2 % or a cap stopped it (cap 100 iterations, 60 s; 3-100 timed), 95 % CI reached " ..
  "±1.8-3.1 % (median ±1.9 %; 1 of 3 runs above their ±2 % target).")
-- Stopped by: ci twice, max_iters once; achieved CI median 1.9 %, max 3.1 %.
chas("stopped by", "| ci 2, max_iters 1; CI ±1.9 % median, ±3.1 % max |")
chas("limitations: seed scale", "- Scale: 224x224 synthetic images (3 runs). The seed's image size.")
local cfig = c:figures{dir = dir .. "/cifig", quiet = true}
-- Numbers and their units joined by no-break spaces, so the subtitle never wraps inside "95 % CI".
local nb = "\194\160"
check("figure subtitle", cfig.files[1].plot.subtitle:find("224x224 synthetic, 3-100 timed iters (target 95" .. nb ..
  "% CI ≤ 2" .. nb .. "%), 95" .. nb .. "% CI reached ±1.8-3.1" .. nb .. "% (median ±1.9" .. nb .. "%; 1 of 3 runs " ..
  "above their ±2" .. nb .. "% target)", 1, true) ~= nil, cfig.files[1].plot.subtitle)

-- A row whose every run was flagged says what its runs lack by the kinds of their flags: a fresh
-- EPYC study's one imprecise (but steady) VGG-16 run was called "none steady".
local configs = require("rlx.studydb.configs")
local function lacks(...)
  local flagged = {}
  for _, k in ipairs({...}) do flagged[#flagged + 1] = {flags = {{kind = k}}} end
  return configs.none_text(flagged)
end
check("none text: unsteady", lacks("unsteady", "unsteady") == "none steady", lacks("unsteady", "unsteady"))
check("none text: imprecise", lacks("imprecise") == "none precise enough", lacks("imprecise"))
check("none text: too short", lacks("unjudged") == "none long enough to judge", lacks("unjudged"))
check("none text: mixed", lacks("imprecise", "contended") == "every run flagged", lacks("imprecise", "contended"))
