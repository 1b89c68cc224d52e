-- bench/data_parallel.lua: data-parallel against one process on this CPU (issue 52), at the seed's
-- 224x224. For each model, three configurations, interleaved round by round (the order rotates)
-- and best round of each kept:
--   1x2  one process, 2 threads, batch B             (the weak-scaling reference)
--   1x2g one process, 2 threads, batch 2B            (the strong-scaling reference: same global batch)
--   2x1  2 ranks, 1 thread each, batch B per rank    (global 2B)
-- It prints one line per model: images/s of each; the efficiency against one rank at the same
-- per-rank batch, 2x1 / 1x2, and at the same global batch, 2x1 / 1x2g: both runs have the same two
-- cores, so the ideal is 1 (docs/report.md: efficiency = speedup / the ratio of the resources, here
-- 2 ranks x 1 thread over 1 rank x 2 threads = 1); and the 2-rank run's all-reduce and
-- exposed-communication shares of its step.
--   rlx run bench/data_parallel.lua --set models=resnet50,mobilenet_v2 --set batch=16 --set rounds=2
local P = rlx.params.declare{
  models = {type = "string", default = "resnet50,mobilenet_v2", help = "models, comma-separated"},
  batch = {type = "integer", min = 1, default = 16, help = "per-rank batch B"},
  rounds = {type = "integer", min = 1, default = 2, help = "interleaved rounds (best kept)"},
  warmup = {type = "integer", min = 0, default = 2, help = "warm-up iterations"},
  iters = {type = "integer", min = 1, default = 6, help = "timed iterations"},
  input = {type = "integer", min = 8, default = 224, help = "image side"},
}
local configs = {
  {name = "1x2", ranks = 1, threads = 2, batch = function(b) return b end},
  {name = "1x2g", ranks = 1, threads = 2, batch = function(b) return 2 * b end},
  {name = "2x1", ranks = 2, threads = 1, batch = function(b) return b end},
}
for model in P.models:gmatch("[^,]+") do
  local best = {}
  for round = 1, P.rounds do
    for k = 0, #configs - 1 do
      local c = configs[(k + round - 1) % #configs + 1]
      local r = rlx.train{model = model, batch = c.batch(P.batch), ranks = c.ranks, threads = c.threads, input = P.input,
        warmup = P.warmup, iters = P.iters, device = "cpu", memory_format = "contiguous", lr = 0.01, progress = false}
      assert(r.ok, r.error)
      io.stderr:write(string.format("round %d %s %s: %.2f img/s%s\n", round, model, c.name, r.images_per_s,
        r.contended and " (contended)" or ""))
      if not best[c.name] or r.images_per_s > best[c.name].images_per_s then best[c.name] = r end
    end
  end
  local one, one_g, two = best["1x2"], best["1x2g"], best["2x1"]
  local dp = two.data_parallel
  print(string.format("| %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.0f %% | %.0f %% | %.1f |", model, P.batch,
    one.images_per_s, one_g.images_per_s, two.images_per_s, two.images_per_s / one.images_per_s,
    two.images_per_s / one_g.images_per_s, dp.comm_share * 100, dp.exposed_share * 100,
    dp.grad_bytes_per_step / 1e6))
end
