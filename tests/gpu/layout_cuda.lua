-- tests/gpu/layout_cuda.lua: the Lua half of tests/gpu/layout_cuda.sh (see its header).
--   rlx run tests/gpu/layout_cuda.lua --set device=cuda --set cases=vgg16:fp32,mobilenet_v2:amp --set batch=64
-- Per case: rlx.calibrate.probe's choice (at the study's probe shape for that batch), then both
-- layouts trained at the batch, interleaved over ROUNDS rounds, each layout's best median step.
-- PASS when the probe chose the layout the longer runs found faster, or the two are within the
-- probe's tie band (rlx.calibrate.NEAR). Never raises for a failed check.
local P = rlx.params or {}
local device = P.device or "cuda"
local cuda = device:match("^cuda") ~= nil
local input = tonumber(P.input) or (cuda and 224 or 32)
local batch = tonumber(P.batch) or (cuda and 64 or 2)
local warmup, iters, rounds = cuda and 3 or 1, cuda and 10 or 2, 2
local cal = rlx.calibrate

local function check(ok, what, detail)
  print(string.format("%s %s%s", ok and "PASS" or "FAIL", what, detail and ("  (" .. tostring(detail) .. ")") or ""))
end

local cases = {}
for item in tostring(P.cases or "resnet50:fp32,resnet50:amp,vgg16:fp32,vgg16:amp,mobilenet_v2:fp32,mobilenet_v2:amp")
    :gmatch("[^,]+") do
  local model, precision = item:match("^([%w_]+):(%w+)$")
  cases[#cases + 1] = {model = model, precision = precision}
end

local rows = {}
for _, c in ipairs(cases) do
  local shape_batch, shape_warmup, shape_iters = cal.probe_shape(cal.kind(device), batch)
  local ok_probe, probe = pcall(cal.probe, {model = c.model, precision = c.precision, device = device, input = input,
    batch = shape_batch, warmup = shape_warmup, iters = shape_iters})
  local best = {}
  for r = 1, rounds do
    local order = r % 2 == 1 and {"channels_last", "contiguous"} or {"contiguous", "channels_last"}
    for _, layout in ipairs(order) do
      local res = rlx.train{model = c.model, precision = c.precision, device = device, input = input, batch = batch,
        warmup = warmup, iters = iters, memory_format = layout, lr = 0.01, progress = false}
      local med = res.ok and res.iter_s and res.iter_s.median
      if med and (not best[layout] or med < best[layout]) then best[layout] = med end
    end
  end
  local faster = best.channels_last and best.contiguous and
    (best.channels_last <= best.contiguous and "channels_last" or "contiguous")
  local ratio = faster and math.max(best.channels_last, best.contiguous) / math.min(best.channels_last, best.contiguous)
  local label = string.format("%s %s b%d", c.model, c.precision, batch)
  if not ok_probe then
    check(false, label .. ": probe", rlx.errors and rlx.errors.message(probe) or tostring(probe))
  elseif not faster then
    check(false, label .. ": both layouts trained")
  else
    local agree = probe.memory_format == faster or ratio <= 1 + cal.NEAR
    check(agree, string.format("%s: the probe chose %s; trained, %s is %.2fx faster", label, probe.memory_format,
      faster, ratio), cal.text(probe))
  end
  rows[#rows + 1] = {label = label, probe = ok_probe and probe.memory_format or "failed",
    margin = ok_probe and cal.margin_text(probe) or "", cl = best.channels_last, co = best.contiguous,
    probe_s = ok_probe and probe.probe.seconds or nil}
end
print(string.format("%-26s %-14s %10s %10s  %s", "case (" .. device .. ", " .. input .. "px)", "probe chose",
  "cl ms", "contig ms", "probe margin; probe seconds"))
for _, r in ipairs(rows) do
  print(string.format("%-26s %-14s %10.2f %10.2f  %s; %.1f s", r.label, r.probe, (r.cl or 0) * 1e3, (r.co or 0) * 1e3,
    r.margin, r.probe_s or 0))
end
