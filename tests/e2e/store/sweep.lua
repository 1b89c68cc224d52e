-- sweep.lua: the 2 models x 2 batch sizes x 2 repeats sweep used by the resume and concurrency
-- tests. --set db=PATH (required), label=ENV, study=NAME, kill_at=N (SIGKILL this process when
-- the N-th run starts), real=1 (train for real with rlx.train: resnet18/mobilenet_v2, 32x32,
-- 2 iterations), spin_ms=N (the fake trainer busy-waits N ms, so concurrent writers interleave),
-- retry_crashed=1 (train slots whose earlier attempt crashed), order=ORDER, calls=FILE (append
-- each trained label to FILE, to count how often a slot was trained across processes),
-- lock_at=N with rlx=PATH (the N-th run, once trained, has another process take the write lock
-- for 2 s; with busy_ms=MS as the study's busy timeout, storing it must wait, not fail),
-- die_label=LABEL with die_how=kill|segv|exit3 (whenever that slot trains, this process gets
-- SIGKILL or SIGSEGV, or calls os.exit(3)), spin_label=LABEL (that slot's training prints
-- "training LABEL" on stderr and never ends), store_fails=LABEL (storing that slot raises, as a
-- full disk would), max_attempts=N, hog_label=LABEL (that slot's training grows a table without
-- bound: under a memory cgroup's limit the OOM killer ends it; run it nowhere else).
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
  if P.calls then
    local f = io.open(P.calls, "a")
    f:write(o.label, "\n")
    f:close()
  end
  if o.label == P.die_label then
    if P.die_how == "exit3" then os.exit(3) end
    local pid = io.open("/proc/self/stat"):read("*l"):match("^(%d+)")
    os.execute((P.die_how == "segv" and "kill -SEGV " or "kill -9 ") .. pid)
    while true do end
  end
  if o.label == P.hog_label then
    local t = {}  -- luacheck: ignore 241 (filled only to take memory until the OOM killer ends it)
    for i = 1, 2 ^ 40 do t[i] = i end
  end
  if o.label == P.spin_label then
    io.stderr:write("training " .. o.label .. "\n")
    while true do end
  end
  if n == kill_at then
    local pid = io.open("/proc/self/stat"):read("*l"):match("^(%d+)")
    io.stderr:write("killing " .. pid .. " at run " .. n .. "\n")
    os.execute("kill -9 " .. pid)
    while true do end
  end
  local r = P.real and rlx.train(o) or fake(o)
  if n == tonumber(P.lock_at or 0) then
    local mark = P.db .. ".locked"
    os.remove(mark)
    os.execute(string.format("%s -e \"local db = rlx.db.open('%s') db:begin() io.open('%s', 'w'):close() " ..
      "os.execute('sleep 2') db:commit()\" &", P.rlx, P.db, mark))
    while not io.open(mark) do os.execute("sleep 0.05") end
  end
  return r
end
local models = P.real and {"resnet18", "mobilenet_v2"} or {"m1", "m2"}
local study = rlx.study{name = P.study or "sweep", db = P.db, label = P.label or "test",
  busy_timeout_ms = tonumber(P.busy_ms)}
if P.store_fails then
  local store_run = study.store_run
  study.store_run = function(self, config, result, opts)
    if opts.label == P.store_fails then error("database or disk is full (simulated)") end
    return store_run(self, config, result, opts)
  end
end
local r = study:sweep{models = models, batch = {2, 4}, repeats = 2, iters = tonumber(P.iters or 3), warmup = 0,
  input = P.real and 32 or nil, classes = P.real and 10 or nil, trainer = trainer, quiet = true,
  retry_crashed = P.retry_crashed ~= nil, order = P.order, max_attempts = tonumber(P.max_attempts)}
if r.dry_run then return end
print(string.format("ran %d skipped %d ok %d failed %d%s%s", r.ran, r.skipped, r.ok, r.failed,
  r.crashed > 0 and (" crashed " .. r.crashed) or "", r.busy > 0 and (" busy " .. r.busy) or ""))
