-- sweep.lua: the 2 models x 2 batch sizes x 2 repeats sweep used by the resume and concurrency
-- tests. --set db=PATH (required), label=ENV, study=NAME, kill_at=N (SIGKILL this process when
-- the N-th run starts), real=1 (train for real with rlx.train: resnet18/mobilenet_v2, 32x32,
-- 2 iterations), spin_ms=N (the fake trainer busy-waits N ms, so concurrent writers interleave).
local P = rlx.params
local kill_at, spin = tonumber(P.kill_at or 0), tonumber(P.spin_ms or 0)
local n = 0
local function fake(o)
  local t0 = os.clock()
  while (os.clock() - t0) * 1e3 < spin do end
  local s = {}
  for i = 1, o.iters do s[i] = 0.01 * i end
  return {ok = true, images_per_s = 100 * o.batch, seconds = 0.01 * o.iters, samples = s,
    iter_s = {mean = 0.02, sd = 0.01, median = 0.02, min = 0.01, max = 0.03, p5 = 0.01, p95 = 0.03}}
end
local function trainer(o)
  n = n + 1
  if n == kill_at then
    local pid = io.open("/proc/self/stat"):read("*l"):match("^(%d+)")
    io.stderr:write("killing " .. pid .. " at run " .. n .. "\n")
    os.execute("kill -9 " .. pid)
    while true do end
  end
  if P.real then return rlx.train(o) end
  return fake(o)
end
local models = P.real and {"resnet18", "mobilenet_v2"} or {"m1", "m2"}
local study = rlx.study{name = P.study or "sweep", db = P.db, label = P.label or "test"}
local r = study:sweep{models = models, batch = {2, 4}, repeats = 2, iters = tonumber(P.iters or 3), warmup = 0,
  input = P.real and 32 or nil, classes = P.real and 10 or nil, trainer = trainer, quiet = true}
if r.dry_run then return end
print(string.format("ran %d skipped %d ok %d failed %d", r.ran, r.skipped, r.ok, r.failed))
