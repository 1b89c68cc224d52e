-- Issue 55 point 4: §4.2's drift verdicts on a fixture worked out by hand. One environment, two
-- configurations (resnet18 fp32 at batch 2 and 4), times in hours from 10:00 UTC:
--   A (batch 2): run 1 attempt 1 at 0 h, 90 images/s, contended, floor 400 (kept in run_attempts);
--                run 2 at 1 h, 100, floor 405; run 1 attempt 2 (the rerun) at 2 h, 110, floor 415.
--   B (batch 4): run 1 at 0.5 h, 200, floor 410; run 2 at 1.5 h, 220, floor 420.
-- Noise floor, relative to its mean 410, on x = 0, .5, 1, 1.5, 2: dx = -1, -.5, 0, .5, 1 (Sxx 2.5),
--   dy x 410 = -10, 0, -5, 10, 5: Sxy = 20 / 410, slope = 8 / 410 = +1.95 %/h; residuals x 410 = -2, 4,
--   -5, 6, -3: SSR = 90 / 410^2, df = 3, half = t975(3) x sqrt(90 / 3 / 2.5) / 410 = 3.182 x 3.464 / 410
--   = 2.69 %/h: CI -0.74 to +4.64 %/h, which holds 0: noise.
-- Images/s within configurations: A about 100 (dx -1, 0, 1; dy -.1, 0, .1), B about 210 (dx -.5, .5;
--   dy -/+ 10/210): Sxx = 2 + .5, Sxy = .2 + 10/210 x .5 x 2 = .247619, slope = .0990476 (+9.90 %/h);
--   residuals dy - slope x dx: A -.00095, 0, +.00095, B +.00186, -.00186; df = 5 - 2 - 1 = 2, half =
--   t975(2) x sqrt(SSR / 2 / 2.5) = .57956 %/h: CI +9.33 to +10.48 %/h: drift; r2 = .99963.
local tmp = os.getenv("RLX_TEST_TMP") or "/tmp"
local dir = tmp .. "/report_drift"
os.execute("rm -rf '" .. dir .. "' && mkdir -p '" .. dir .. "'")
local failures = 0
local function check(what, ok, detail)
  if not ok then failures = failures + 1 end
  print((ok and "ok\t" or "FAIL\t") .. what .. (ok and "" or ("\t" .. tostring(detail))))
end
local function near(a, b, tol) return type(a) == "number" and math.abs(a - b) <= (tol or 1e-6) end

local path = dir .. "/drift.db"
local db = rlx.db.open(path)
db:put_environment{id = "env-drift", label = "epyc", cpu_model = "EPYC", cpu_caches = {}}
db:put_study("d")
local function put(batch, run, ips, floor, at, extra)
  local result = {ok = true, images_per_s = ips, floor_gflops = floor, iters = 5, contended = false,
    stability = {stable = true, judged = true}, samples = {0.1, 0.1, 0.1, 0.1, 0.1}}
  for k, v in pairs(extra or {}) do result[k] = v end
  return db:put_run{study = "d", environment_id = "env-drift", label = string.format("epyc_resnet18_fp32_bs%d_run%d",
    batch, run), run = run, config = {model = "resnet18", precision = "fp32", batch = batch, device = "cpu"},
    result = result, columns = {finished_at = at, started_at = at}}
end
put(2, 1, 90, 400, "2026-01-01T10:00:00Z", {contended = true})
put(4, 1, 200, 410, "2026-01-01T10:30:00Z")
put(2, 2, 100, 405, "2026-01-01T11:00:00Z")
put(4, 2, 220, 420, "2026-01-01T11:30:00Z")
put(2, 1, 110, 415, "2026-01-01T12:00:00Z", {rerun_because = "contended"})
check("the store keeps the contended attempt", db:first("SELECT count(*) AS n FROM run_attempts").n == 1 and
  db:first("SELECT count(*) AS n FROM runs").n == 4)
db:close()

local ro = rlx.db.open(path, {readonly = true})
local D = require("rlx.studydb.data").load(ro, "d", path)
local drift = require("rlx.report.drift")
check("UTC times", drift.utc_seconds("1970-01-02T00:00:01Z") == 86401 and
  drift.utc_seconds("2026-01-01T12:00:00Z") - drift.utc_seconds("2025-12-31T12:00:00Z") == 86400)
local envs = drift.analyse(D)
local e = envs[1]
check("5 points: 4 runs and 1 attempt, over 2 h", e and #e.points == 5 and e.runs == 4 and e.attempts == 1 and
  near(e.span_h, 2), e and #e.points)
local f = e.floor.fit
check("noise floor slope 8/410 per hour", near(f.slope, 8 / 410), f.slope)
check("its CI: t975(3) x sqrt(12) / 410", near(f.half, rlx.stats.t975(3) * math.sqrt(12) / 410) and f.df == 3, f.half)
check("the floor's verdict is noise", drift.verdict(f) == "noise")
local w = e.within.fit
check("within slope .247619 / 2.5", near(w.slope, (0.2 + 10 / 210) / 2.5), w.slope)
check("two groups, df 2", w.df == 2 and w.groups == 2 and e.within.groups == 2 and e.within.n == 5, w.df)
local ssr = 0
for _, p in ipairs({{-1, -0.1}, {0, 0}, {1, 0.1}, {-0.5, -10 / 210}, {0.5, 10 / 210}}) do
  ssr = ssr + (p[2] - w.slope * p[1]) ^ 2
end
check("within half width", near(w.half, rlx.stats.t975(2) * math.sqrt(ssr / 2 / 2.5)), w.half)
check("the configurations' verdict is drift", drift.verdict(w) == "drift")
check("r2", near(w.r2, 1 - ssr / (0.02 + 2 * (10 / 210) ^ 2)), w.r2)
ro:close()

-- The report's §4.2 says so, naming where each number comes from.
local function sh(cmd)
  local p = io.popen(cmd .. " 2>&1")
  local out = p:read("*a")
  p:close()
  return out
end
local rlx_bin = sh("readlink /proc/$PPID/exe"):gsub("%s+$", "")
local out = sh(string.format("'%s' report '%s' --out '%s/report'", rlx_bin, path, dir))
local f_md = io.open(dir .. "/report/report.md")
local text = f_md and f_md:read("*a") or ""
if f_md then f_md:close() end
check("the report was written", #text > 0, out)
local function has(s) return text:find(s, 1, true) ~= nil end
check("§4.2: the floor's trend and verdict", has("the noise floor went 400 → 415 GFLOP/s from " ..
  "`epyc_resnet18_fp32_bs2_run1` (10:00) to `epyc_resnet18_fp32_bs2_run1` (12:00), 2.0 h; its trend over 5 " ..
  "probes is +2.0 %/h (95 % CI -0.7 to +4.6 %/h): **noise** (the CI holds 0)."), text:match("Drift.-\n\n.-\n\n") or "")
check("§4.2: the configurations' trend, verdict and effect on the CIs", has("images/s moved +9.9 %/h (95 % CI " ..
  "+9.3 to +10.5 %/h) over 5 runs and attempts of 2 configurations with two or more") and has("**drift** (the CI " ..
  "excludes 0). It accounts for 100 % of the spread") and has("52.01× as wide as with the trend taken out " ..
  "(1 / √(1 − r²), r² = 0.9996)"), text:match("Drift.-\n\n.-\n\n") or "")
check("§4.2: the rerun against its kept attempt", has("`epyc_resnet18_fp32_bs2_run1` attempt 1 90.0 (contended, " ..
  "10:00) → attempt 2 110 (12:00, +22.2 %)"))
check("the appendix lists every point in time order", has("90.0 (run 1 #1 superseded, 10:00), 100 (run 2 #1, " ..
  "11:00), 110 (run 1 #2, 12:00)"))
-- The study of issue 55 (tests/fixtures/studies/epyc-zen5-study.db, a Zen 5 over 40 minutes, stored
-- before attempts were kept): both trends are drift.
-- A copy: opening the fixture itself would leave -wal/-shm files beside it.
os.execute("cp tests/fixtures/studies/epyc-zen5-study.db '" .. dir .. "/zen5.db'")
local z = rlx.db.open(dir .. "/zen5.db", {readonly = true})
local Z = drift.analyse(require("rlx.studydb.data").load(z, nil, "epyc-zen5-study.db"))[1]
z:close()
check("the Zen 5 study's noise floor drifted", drift.verdict(Z.floor.fit) == "drift" and Z.floor.n == 27 and
  Z.floor.first.floor < Z.floor.last.floor, Z.floor.fit and Z.floor.fit.low)
check("so did its configurations", drift.verdict(Z.within.fit) == "drift" and Z.within.groups == 9,
  Z.within.fit and Z.within.fit.low)
print(failures == 0 and "drift ok" or (failures .. " failures"))
