-- all_busy.lua: experiments/all.lua with a stand-in trainer (fixed images/s, no LibTorch work), for
-- resume_zombie.sh. With RLX_TEST_SPIN_LABEL set, that run trains forever (after printing
-- "training LABEL" on stderr), so another process finds its slot claimed by a live process. The
-- database must hold the environment's peaks already (no peaks are measured).
local spin = os.getenv("RLX_TEST_SPIN_LABEL")
rawset(rlx, "train", function(o)
  if o.label == spin then
    io.stderr:write("training " .. o.label .. "\n")
    io.stderr:flush()
    while true do end
  end
  local ips = 10 * o.batch
  -- Every timed step the same (the layout probe, rlx.calibrate, reads the steps: a tie).
  local samples = {}
  for i = 1, o.iters or 1 do samples[i] = o.batch / ips end
  return {ok = true, samples = samples,
    images_per_s = ips, seconds = o.iters * o.batch / ips, device = "cpu", precision = o.precision,
    batch = o.batch, iters = o.iters, iter_s = {mean = o.batch / ips, sd = 0, median = o.batch / ips}, config = o}
end)
dofile("experiments/all.lua")
