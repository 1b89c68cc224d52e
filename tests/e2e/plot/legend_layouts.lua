-- A study's roofline names a layout each model keeps once, in the model's legend entry, and labels
-- points only with what varies between one model's points. Issue 33's calibration gave VGG-16
-- contiguous and the other models channels_last; every point label then carried its model's layout
-- ("bs32 channels_last") and MobileNetV2's three labels overlapped in the EPYC study's figure.
-- Runs are stored by hand: resnet18 channels_last at 32x32 (batch 2, 4), vgg11 contiguous at 32x32
-- (batch 2), mobilenet_v2 channels_last at 32x32 and 48x48 (batch 2): input varies within one model,
-- so it stays in that model's labels.
local tmp = os.getenv("RLX_TEST_TMP") or "/tmp"
local dir = tmp .. "/plot_legend_layouts"
os.execute("rm -rf '" .. dir .. "'")
local s = rlx.study{name = "layouts", db = dir .. "/l.db", label = "lenv"}
local function store(model, batch, input, layout)
  s:store_run({model = model, precision = "fp32", batch = batch, device = "cpu", warmup = 1, iters = 5, input = input,
    classes = 10, memory_format = layout}, {ok = true, images_per_s = 100, iter_s = {mean = batch / 100, sd = 0},
    seconds = 1, device = "cpu", stability = {stable = true, drift = 0, cv = 0.01}, input = input,
    memory_format = layout}, {run = 1, roofline = {{level = "dram", precision = "fp32", ai = 2 + batch + input / 16,
    gflops = 5 * #model + batch, flops = 1, bytes = 1, seconds = 1, source = "estimated"}}})
end
store("resnet18", 2, 32, "channels_last")
store("resnet18", 4, 32, "channels_last")
store("vgg11", 2, 32, "contiguous")
store("mobilenet_v2", 2, 32, "channels_last")
store("mobilenet_v2", 2, 48, "channels_last")
s:store_peaks({dram_gbps = 20, fp32_gflops = 100}, {device = "cpu"})
local f = s:figures{dir = dir .. "/figs", quiet = true}
for _, x in ipairs(f.files) do
  if x.figure == "C" then
    print("color_by", x.plot.color_by, x.plot.color_title)
    for _, p in ipairs(x.plot.points) do print(p.model_legend, p.label) end
  end
end
