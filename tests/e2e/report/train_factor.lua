-- TRAIN_FACTOR has one description (docs/export-seed.md, "TRAIN_FACTOR"), and it is what the seed
-- kit's analysis/roofline.py computes from `rlx export --layout seed`'s files (issue 45). The kit's
-- formula, applied here to an export of the EPYC fixture study: a run's training FLOPs per
-- iteration = summary[arch][batch].flops_per_batch_forward x TRAIN_FACTOR (2), its attained GFLOP/s =
-- those FLOPs x measured_iters / elapsed_sec / 1e9 (metrics.csv). Checked: the per-image figure is
-- Table 1's "Seed kit" cell; the kit's GFLOP/s over rlx's (analysis/roofline_points.csv, the same
-- run's time) is the kit's FLOPs over rlx's train_flops_per_iteration, about 2/3.
-- Usage: rlx run train_factor.lua --set kit=DIR (the export) --set report=FILE (its report.md)
local P = rlx.params.declare{kit = {type = "string", required = true, help = "rlx export --layout seed's folder"},
  report = {type = "string", required = true, help = "the report.md of the same database"}}
local function read(path)
  local f = assert(io.open(path))
  local t = f:read("*a")
  f:close()
  return t
end
local function rows(path)
  local lines = {}
  for l in read(path):gmatch("[^\n]+") do lines[#lines + 1] = l end
  local head, out = {}, {}
  for c in lines[1]:gmatch("[^,]+") do head[#head + 1] = c end
  for i = 2, #lines do
    local r, k = {}, 0
    for c in (lines[i] .. ","):gmatch("([^,]*),") do k = k + 1; r[head[k]] = c end
    out[#out + 1] = r
  end
  return out
end
local TRAIN_FACTOR = 2  -- the kit's
local summary = rlx.json.decode(read(P.kit .. "/logs/model_summaries/summary.json"))
local rlx_points = {}
for _, r in ipairs(rows(P.kit .. "/analysis/roofline_points.csv")) do rlx_points[r.label] = r end
local checked, bad = 0, 0
for _, m in ipairs(rows(P.kit .. "/logs/metrics.csv")) do
  local e = summary[m.arch][m.batch_size]
  local kit_flops = e.flops_per_batch_forward * TRAIN_FACTOR
  local kit_gflops = kit_flops * tonumber(m.measured_iters) / tonumber(m.elapsed_sec) / 1e9
  local ours = rlx_points[m.label]
  local train = e.training[m.precision].train_flops_per_iteration
  local want = kit_flops / train
  local got = kit_gflops / tonumber(ours.attained_gflops)
  checked = checked + 1
  if math.abs(got / want - 1) > 1e-6 then
    bad = bad + 1
    print(string.format("FAIL\t%s: kit/rlx GFLOP/s %.6f, kit/rlx FLOPs %.6f", m.label, got, want))
  end
end
print(string.format("%s\tkit's GFLOP/s = rlx's x its FLOPs / rlx's, %d runs", bad == 0 and "ok" or "FAIL", checked))
-- Table 1's cell: the kit's FLOPs per image (flops_per_batch_forward / batch x TRAIN_FACTOR), in G.
local md = read(P.report)
for _, model in ipairs({"resnet50", "vgg16", "mobilenet_v2"}) do
  local e = summary[model]["16"]
  local per_image = e.flops_per_batch_forward / e.batch_size * TRAIN_FACTOR / 1e9
  local cell = string.format("%." .. math.max(0, 3 - math.floor(math.log10(per_image))) .. "f", per_image)
  local line = md:match("\n(| " .. model .. " | 224 |[^\n]*)")
  local cells = {}
  for c in (line or ""):gmatch("| ([^|]-) ") do cells[#cells + 1] = c end
  print(string.format("%s\tTable 1 %s: kit %s, report %s", cells[9] == cell and "ok" or "FAIL", model, cell,
    tostring(cells[9])))
end
