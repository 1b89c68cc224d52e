-- tests/gpu/graphs_cuda.lua: the Lua half of tests/gpu/graphs_cuda.sh (see its header).
--   rlx run tests/gpu/graphs_cuda.lua --set device=cuda --set out=DIR
-- Prints one PASS/FAIL line per check and a table; writes DIR/graphs_cuda.json. Never raises for
-- a failed check: every check is counted by the shell.
local P = rlx.params or {}
local device = P.device or "cuda"
local out = P.out or "."
local cuda = device:match("^cuda") ~= nil

local function finite(x) return type(x) == "number" and x == x and x ~= math.huge and x ~= -math.huge end
local function check(ok, what, detail)
  print(string.format("%s %s%s", ok and "PASS" or "FAIL", what, detail and ("  (" .. tostring(detail) .. ")") or ""))
  return ok
end
local function with(base, extra)
  local t = {}
  for k, v in pairs(base) do t[k] = v end
  for k, v in pairs(extra or {}) do t[k] = v end
  return t
end
local report = {device = device, refusals = {}, pairs = {}}

-- (1) Refusals. Off the GPU the device is "auto", so that the other refusals are reached (a
-- machine without a GPU refuses device = "cpu" first).
local other = cuda and device or "auto"
local base = {model = "resnet18", batch = 2, input = 32, warmup = 1, iters = 1, progress = false, cuda_graphs = true}
local refusals = {
  {"device cpu", {device = "cpu"}, "the run is on the CPU"},
  {"a dataset", {device = other, data = "/nonexistent/imagenet"}, "fixed input tensors"},
  {"grad_accum 2", {device = other, grad_accum = 2}, "grad_accum=2"},
  {"counted iterations", {device = other, counter_iters = 1}, "counter_iters=1"},
  {"counters", {device = other, counters = true}, "cannot be combined with cuda_graphs"},
  {"warmup 0", {device = other, warmup = 0}, "warmup >= 1"},
}
for _, r in ipairs(refusals) do
  local ok, err = pcall(rlx.train, with(base, r[2]))
  local msg = ok and ("no error (ok = " .. tostring(err.ok) .. ", " .. tostring(err.error) .. ")") or rlx.errors.message(err)
  report.refusals[r[1]] = msg
  check(not ok and msg:find(r[3], 1, true) ~= nil, "cuda_graphs refused: " .. r[1], msg)
end
if not cuda then
  -- "auto" on a machine without a GPU: the run cannot be graphed, ok = false naming why.
  local ok, r = pcall(rlx.train, with(base, {device = "auto"}))
  check(ok and r.ok == false and tostring(r.error):find("cuda_graphs", 1, true) ~= nil,
    "cuda_graphs on device auto without a GPU: ok = false", ok and r.error or rlx.errors.message(r))
  print("DRY RUN: the eager/graphed pairs need a GPU; skipped")
  local f = assert(io.open(out .. "/graphs_cuda.json", "w"))
  f:write(rlx.json.encode(report, 2), "\n")
  f:close()
  return
end

-- (2) Eager against graphed, the same seed, 5 and 20 steps.
local rows = {}
local function train(opts)
  local okcall, r = pcall(rlx.train, opts)
  if not okcall then return {ok = false, error = rlx.errors.message(r)} end
  return r
end
local cases = {
  {model = "resnet18", precision = "fp32", falls = true},
  {model = "resnet18", precision = "amp"},
  {model = "mobilenet_v2", precision = "bf16"},
}
for _, c in ipairs(cases) do
  for _, steps in ipairs({5, 20}) do
    local name = string.format("%s %s, %d steps", c.model, c.precision, steps)
    local opts = {model = c.model, precision = c.precision, device = device, batch = 16, input = 112, warmup = 2,
      iters = steps - 2, seed = 1, lr = 0.01, deterministic = true, progress = false}
    local eager, graphed = train(opts), train(with(opts, {cuda_graphs = true}))
    report.pairs[#report.pairs + 1] = {case = name, eager = eager, graphed = graphed}
    local both = check(eager.ok == true, name .. ": eager ok", eager.error)
    both = check(graphed.ok == true, name .. ": graphed ok", graphed.error) and both
    if both then
      check(graphed.cuda_graphs == true and eager.cuda_graphs == false, name .. ": cuda_graphs echoed")
      check(type(graphed.samples) == "table" and #graphed.samples == steps - 2, name .. ": one sample per replay",
        type(graphed.samples) == "table" and #graphed.samples or "no samples")
      local d_first = math.abs(graphed.loss_first - eager.loss_first) / math.max(1, math.abs(eager.loss_first))
      check(d_first <= 1e-6, name .. ": the same first loss (an eager warm-up step in both)",
        string.format("%.9g vs %.9g", eager.loss_first, graphed.loss_first))
      local d_last = math.abs(graphed.loss_last - eager.loss_last) / math.max(1, math.abs(eager.loss_last))
      check(finite(d_last) and d_last <= 1e-3, name .. ": the last loss equal to float rounding (relative 1e-3)",
        string.format("eager %.9g, graphed %.9g, relative difference %.2e", eager.loss_last, graphed.loss_last, d_last))
      if c.falls and steps == 20 then
        check(graphed.loss_last < graphed.loss_first, name .. ": the graphed run trains (its loss falls)",
          string.format("%.4f -> %.4f", graphed.loss_first, graphed.loss_last))
      end
    end
    rows[#rows + 1] = {name, eager, graphed}
  end
end

-- (3) The launch-bound case of issue 46: MobileNetV2 amp, batch 64, 224x224.
local speed = {model = "mobilenet_v2", precision = "amp", device = device, batch = 64, input = 224, warmup = 5,
  iters = 30, lr = 0.01, progress = false}
local eager, graphed = train(speed), train(with(speed, {cuda_graphs = true}))
report.speed = {eager = eager, graphed = graphed}
if check(eager.ok and graphed.ok, "mobilenet_v2 amp b64 224px: eager and graphed ok", eager.error or graphed.error) then
  local okci, ci = pcall(rlx.stats.ratio_ci95, eager.samples, graphed.samples)
  print(string.format("mobilenet_v2 amp b64: eager %.0f img/s, graphed %.0f img/s, graphed / eager %.2fx%s",
    eager.images_per_s, graphed.images_per_s, graphed.images_per_s / eager.images_per_s,
    okci and type(ci) == "table" and string.format(" [%.2f, %.2f]", ci.low, ci.high) or ""))
end

print(string.format("%-30s %10s %10s %14s %14s", "case", "eager i/s", "graph i/s", "eager loss", "graph loss"))
for _, row in ipairs(rows) do
  local e, g = row[2], row[3]
  print(string.format("%-30s %10s %10s %14s %14s", row[1],
    e.ok and string.format("%.0f", e.images_per_s) or "-", g.ok and string.format("%.0f", g.images_per_s) or "-",
    e.ok and string.format("%.6f", e.loss_last) or "-", g.ok and string.format("%.6f", g.loss_last) or "-"))
end
for _, r in ipairs({eager, graphed}) do r.samples, r.warmup_samples = nil, nil end
local f = assert(io.open(out .. "/graphs_cuda.json", "w"))
f:write(rlx.json.encode(report, 2), "\n")
f:close()
print("wrote " .. out .. "/graphs_cuda.json")
