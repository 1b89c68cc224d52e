-- stats.lua: the rlx.stats cases store/api.lua leaves out: summary and t975 worked by hand, and the
-- argument checks of median, percentile, cv, ci95, summary and mean_sd, one message per line.
local function err(f, ...)
  local ok, e = pcall(f, ...)
  print(ok and "no error" or tostring(e))
end
-- {1, 2, 3, 4}: mean 2.5, sample SD sqrt(5/3) = 1.2910, t(3) = 3.182, half width 3.182 * 1.2910 / 2 =
-- 2.0540; p5 at rank 1.15 = 1.15, p95 at rank 3.85 = 3.85; cv 1.2910 / 2.5 = 0.5164.
local s = rlx.stats.summary{1, 2, 3, 4}
print(s.n, s.mean, s.median, s.min, s.max, string.format("%.4f %.4f %.4f %.2f %.2f %.4f", s.sd, s.ci95_low,
  s.ci95_high, s.p5, s.p95, s.cv))
-- t975: tabulated for 1..30 df; 1000 df interpolates in 1/df between 120 (1.980) and infinity (1.960):
-- 1.980 - 0.020 * (1 - 120 / 1000) = 1.9624; no quantile for 0 df.
print(rlx.stats.t975(2), rlx.stats.t975(30), string.format("%.4f", rlx.stats.t975(1000)), rlx.stats.t975(0))
err(rlx.stats.median, "x")
err(rlx.stats.percentile, "x", 50)
err(rlx.stats.percentile, {1, 2})
err(rlx.stats.cv, {1, "a"})
err(rlx.stats.ci95, nil)
err(rlx.stats.summary, 5)
err(rlx.stats.mean_sd, "x", "images_per_s")
err(rlx.stats.mean_sd, {}, 5)
err(rlx.stats.mean_sd, {}, "images_per_s", {digits = "x"})
err(rlx.stats.mean_sd, {}, "images_per_s", {by = 3})
err(rlx.stats.mean_sd, {}, "images_per_s", "by")
