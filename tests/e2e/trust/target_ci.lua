-- Precision-targeted training (issue 21 item 1) on the four-layer test model: rlx.train{target_ci}
-- returns stop_reason and ci_rel; ci_rel is the 95 % CI half-width recomputed in Lua from the
-- returned samples (rlx.stats.ci95: the same t table); a run that stopped at its target ("ci") is
-- within it; the caps stop it otherwise; warm-up "auto" keeps its samples; bad combinations raise
-- the exact messages of docs/lua-api/train.md.
local tiny = dofile("tests/e2e/train/tiny_model.lua")
local BASE = {model = tiny, batch = 2, input = 16, classes = 3, threads = 1, progress = false}
local function opts(extra)
  local o = {}
  for k, v in pairs(BASE) do o[k] = v end
  for k, v in pairs(extra) do o[k] = v end
  return o
end
local failures = 0
local function check(what, ok, detail)
  if not ok then failures = failures + 1 end
  print((ok and "ok\t" or "FAIL\t") .. what .. (ok and "" or ("\t" .. tostring(detail))))
end
local function sum(xs) local s = 0 for _, x in ipairs(xs) do s = s + x end return s end

-- A reachable target: the run stops by its CI (or, on a very noisy machine, at 500 iterations).
local r = rlx.train(opts{target_ci = 0.05, max_iters = 500})
check("ok", r.ok, r.error)
check("stop_reason ci or max_iters", r.stop_reason == "ci" or r.stop_reason == "max_iters", r.stop_reason)
local _, _, half = rlx.stats.ci95(r.samples)
local rel = half / rlx.stats.mean(r.samples)
check("ci_rel recomputed from the samples", math.abs(rel - r.ci_rel) <= 1e-9 * rel, rel .. " vs " .. r.ci_rel)
if r.stop_reason == "ci" then
  check("within the target", rel <= 0.05, rel)
  check("steady when stopped by ci", r.stability.stable == true, r.stability.drift)
end
check("iters = samples taken", r.iters == #r.samples, r.iters)
check("min_iters taken", #r.samples >= 5, #r.samples)
check("images/s over every sample", math.abs(r.images_per_s - 2 * #r.samples / sum(r.samples)) <= 1e-9 * r.images_per_s)
check("warm-up auto echoed", r.warmup == "auto" and r.max_warmup == 10, r.warmup)
check("warmup_used = warm-up samples", r.warmup_used == #r.warmup_samples and r.warmup_used >= 2, r.warmup_used)
check("protocol echoed", r.target_ci == 0.05 and r.min_iters == 5 and r.max_iters == 500, r.min_iters)

-- An unreachable target stops at the iteration cap, then at the time cap.
local capped = rlx.train(opts{target_ci = 1e-12, max_iters = 7, min_iters = 2})
check("max_iters", capped.stop_reason == "max_iters" and #capped.samples == 7, capped.stop_reason)
local timed = rlx.train(opts{target_ci = 1e-12, max_iters = 100000, max_seconds = 0.05})
check("max_seconds", timed.stop_reason == "max_seconds" and #timed.samples >= 5, timed.stop_reason)
check("max_seconds echoed", timed.max_seconds == 0.05, timed.max_seconds)

-- Warm-up until steady with a cap of one iteration; a fixed run.
local one = rlx.train(opts{iters = 3, warmup = "auto", max_warmup = 1})
check("max_warmup caps warm-up", one.warmup_used == 1 and one.stop_reason == "fixed", one.warmup_used)
local fixed = rlx.train(opts{iters = 4, warmup = 2})
check("fixed", fixed.stop_reason == "fixed" and fixed.warmup_used == 2 and #fixed.warmup_samples == 2 and
  fixed.iters == 4 and #fixed.samples == 4, fixed.stop_reason)
check("fixed ci_rel", type(fixed.ci_rel) == "number" and fixed.ci_rel > 0, fixed.ci_rel)
check("contention measured", type(fixed.other_cpu) == "number" and type(fixed.cpu_share) == "number" and
  type(fixed.contended) == "boolean", fixed.other_cpu)

-- Bad combinations: one message each, naming the option and the fix.
local function err(extra)
  local ok, e = pcall(rlx.train, opts(extra))
  return ok and "no error" or rlx.errors.message(e)
end
local ERRORS = {
  {{target_ci = 0.05, iters = 5}, "option 'iters' is a fixed count; with target_ci the run measures until precise " ..
    "(bound it with max_iters, max_seconds)"},
  {{max_iters = 5}, "option 'max_iters' applies with target_ci only (e.g. target_ci = 0.02)"},
  {{max_seconds = 5}, "option 'max_seconds' applies with target_ci only (e.g. target_ci = 0.02)"},
  {{target_ci = 2}, "option 'target_ci' must be a fraction below 1 (0.02 = +/-2 %), got 2"},
  {{target_ci = 0}, "option 'target_ci' must be a number > 0, got 0"},
  {{target_ci = 0.05, min_iters = 1}, "option 'min_iters' must be an integer >= 2, got 1"},
  {{target_ci = 0.05, min_iters = 6, max_iters = 3}, "option 'max_iters' must be >= min_iters (6), got 3"},
  {{warmup = "soon"}, "option 'warmup' must be a number of iterations or \"auto\" (until steady), got \"soon\""},
  {{warmup = 2, max_warmup = 3}, "option 'max_warmup' applies with warmup = \"auto\" only"},
}
for _, case in ipairs(ERRORS) do
  local got = err(case[1])
  check("error: " .. case[2]:sub(1, 40), got == case[2], got)
end
print(failures == 0 and "target_ci ok" or (failures .. " failures"))
