-- study_quality.lua: how trustworthy a study database's numbers are (issue 21 item 6), for
-- docs/benchmarks.md "Study protocols": per environment and configuration (rlx.studydb.configs'
-- full key, so two scales never share a row), the repeats' images/s, their CV, the 95 % CI
-- half-width of the row's mean (relative, Student's t) and the minutes of training the row cost
-- (the runs' total_s); then the study's steady fraction, contended runs, median CV across repeats,
-- rows above 10 % CV, and the median CI half-width x sqrt(minutes) (the precision a minute buys:
-- for independent repeats it does not depend on how many there are).
--   build/rlx run bench/study_quality.lua --set db=results/p1-roofline.db
local P = rlx.params.declare{db = {required = true, help = "study database"},
  study = {default = "p1-roofline", help = "study name"}}
local configs = require("rlx.studydb.configs")
local stats = rlx.stats
local db = rlx.db.open(P.db, {readonly = true})
local runs = db:runs{study = P.study, status = "ok"}
local groups, order = {}, {}
local steady, verdicts, contended, records = 0, 0, 0, 0
for _, r in ipairs(runs) do
  local k = tostring(r.env) .. "|" .. configs.key(r)
  if not groups[k] then groups[k] = {}; order[#order + 1] = k end
  table.insert(groups[k], r)
  if r.stable ~= nil then verdicts = verdicts + 1; if r.stable == 1 then steady = steady + 1 end end
  if r.contended ~= nil then records = records + 1; if r.contended == 1 then contended = contended + 1 end end
end
print(string.format("%-48s %3s %24s %7s %8s %7s %9s", "row", "n", "images/s", "CV", "CI95", "min", "CI*sqrt"))
local cvs, effs, above = {}, {}, 0
for _, k in ipairs(order) do
  local g, ips, minutes = groups[k], {}, 0
  for _, r in ipairs(g) do ips[#ips + 1] = r.images_per_s; minutes = minutes + (r.total_s or 0) / 60 end
  local cv = #ips >= 2 and stats.cv(ips) or nil
  local _, _, half = stats.ci95(ips)
  local rel = half and half / stats.mean(ips) or nil
  if cv then cvs[#cvs + 1] = cv; if cv > 0.10 then above = above + 1 end end
  if rel then effs[#effs + 1] = rel * math.sqrt(minutes) end
  local parts = {}
  for _, x in ipairs(ips) do parts[#parts + 1] = string.format("%.2f", x) end
  local r1 = g[1]
  print(string.format("%-48s %3d %24s %6.1f%% %7.1f%% %7.1f %8.3f",
    string.format("%s %s %s bs%s %spx", r1.env, r1.model, r1.precision, r1.batch, configs.of(r1).input), #g,
    table.concat(parts, " "), (cv or 0) * 100, (rel or 0) * 100, minutes, rel and rel * math.sqrt(minutes) or 0))
end
print(string.format("runs %d; steady %d / %d (%.0f %%); contended %d / %d; median CV across repeats %.1f %%; " ..
  "rows above 10 %% CV: %d of %d; median CI half-width x sqrt(min) %.3f", #runs, steady, verdicts,
  verdicts > 0 and 100 * steady / verdicts or 0, contended, records, (stats.median(cvs) or 0) * 100, above, #cvs,
  stats.median(effs) or 0))
