-- Every rlx.plot chart to PNG, SVG and PDF; PNG pixels sampled where the returned axes say a roof,
-- a ceiling and a point were drawn. Prints one line per check so the test's regex shows what failed.
local tmp = os.getenv("RLX_TEST_TMP") or "/tmp"
local pal = rlx.plot.palette()
local function near(hex, want, tol)
  local function ch(h, i) return tonumber(h:sub(i, i + 1), 16) end
  for i = 2, 6, 2 do if math.abs(ch(hex, i) - ch(want, i)) > tol then return false end end
  return true
end
local function magic(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read(200)
  f:close()
  if s:sub(2, 4) == "PNG" then return "png" end
  if s:find("<svg", 1, true) then return "svg" end
  if s:sub(1, 5) == "%PDF-" then return "pdf" end
  return "?"
end

local points = {
  {ai = 5, gflops = 300, model = "resnet50", precision = "fp32", batch = 16},
  {ai = 20, gflops = 900, model = "resnet50", precision = "amp", batch = 16},
  {ai = 2, gflops = 150, model = "vgg16", precision = "fp32", batch = 32},
}
for _, ext in ipairs({"png", "svg", "pdf"}) do
  local out = tmp .. "/e2e_roofline." .. ext
  local info = rlx.plot.roofline{points = points, peak_flops = 4e12, peak_bw = 400e9, title = "Roofline", out = out,
    arrows = true}
  print(ext, info.format, magic(out), info.width .. "x" .. info.height)
end
local out = tmp .. "/e2e_roofline.png"
local info = rlx.plot.roofline{points = points, peak_gflops = 4000, peak_gbps = 400, out = out, arrows = true}
-- The memory roof at AI 1 is 400 GFLOP/s; the ceiling at AI 50 is 4000 GFLOP/s; both dark.
print("roof", near(rlx.plot.pixel(out, info:px(1, 400)), "#212121", 60))
print("ceiling", near(rlx.plot.pixel(out, info:px(50, 4000)), "#212121", 60))
print("point1", near(rlx.plot.pixel(out, info:px(5, 300)), pal[1], 10))
print("point3", near(rlx.plot.pixel(out, info:px(2, 150)), pal[2], 10))
print("ridge", info.ridge_ai, "above", tostring(info.above_roof[1]))
-- Log ticks of a known range.
local t = rlx.plot.ticks{scale = "log", min = 0.1, max = 1000}
local labels = {}
for i, x in ipairs(t) do labels[i] = x.label end
print("ticks", table.concat(labels, " "))

-- peaks= picks roofs and the ceilings of the precisions in use (fp64 is left out).
local p2 = tmp .. "/e2e_roofline_peaks.png"
rlx.plot.roofline{points = points, peaks = {dram_gbps = 100, l2_gbps = 400, fp32_gflops = 1000,
  fp16_tensor_gflops = 4000, fp64_gflops = 500}, out = p2}
local roofs, ceilings = rlx.plot.roofs_from_peaks({dram_gbps = 100, l2_gbps = 400, fp32_gflops = 1000,
  fp16_tensor_gflops = 4000, fp64_gflops = 500}, {fp32 = true, amp = true})
local names = {}
for _, r in ipairs(roofs) do names[#names + 1] = r.label end
for _, c in ipairs(ceilings) do names[#names + 1] = c.label end
print("from peaks", table.concat(names, ","))

local series = {
  {label = "resnet50 fp32", x = {16, 32, 64}, y = {100, 180, 300}, sd = {10, 20, 15}},
  {label = "resnet50 bf16", x = {16, 32, 64}, y = {120, 200, 330}, sd = {5, 5, 5}},
}
for _, ext in ipairs({"png", "svg", "pdf"}) do
  local o = tmp .. "/e2e_thr." .. ext
  local i1 = rlx.plot.throughput{series = series, title = "Throughput", out = o}
  local o2 = tmp .. "/e2e_var." .. ext
  local i2 = rlx.plot.variability{groups = {{label = "a", values = {1, 2, 3}}, {label = "b", values = {2, 2.5, 2.2}}},
    out = o2, title = "Variability"}
  local o3 = tmp .. "/e2e_line." .. ext
  local i3 = rlx.plot.line{series = series, xscale = "log", yscale = "log", out = o3}
  local o4 = tmp .. "/e2e_ai." .. ext
  local i4 = rlx.plot.ai_vs_batch{points = {{batch = 16, ai = 10, precision = "fp32", model = "m"},
    {batch = 32, ai = 12, precision = "fp32", model = "m"}}, model = "m", out = o4}
  local o5 = tmp .. "/e2e_scatter." .. ext
  local i5 = rlx.plot.scatter{series = series, out = o5}
  print(ext, magic(o), magic(o2), magic(o3), magic(o4), magic(o5), i1.width, i2.height, i3.x.scale, i4.y.min, i5.format)
end
local ti = rlx.plot.throughput{series = {series[1]}, out = tmp .. "/e2e_thr1.png"}
print("throughput marker", near(rlx.plot.pixel(tmp .. "/e2e_thr1.png", ti:px(32, 180)), pal[1], 10), "ymin", ti.y.min)
