-- rlx.peaks.datasheet / define: driver names match, user entries add and override.
local function show(name)
  local e = rlx.peaks.datasheet(name)
  if not e then print(name, "nil") return end
  print(string.format("%s -> %s fp32=%s tf32=%s fp16t=%s bf16t=%s fp64=%s dram=%s %s", name, e.name,
    tostring(e.fp32_gflops), tostring(e.tf32_tensor_gflops), tostring(e.fp16_tensor_gflops),
    tostring(e.bf16_tensor_gflops), tostring(e.fp64_gflops), tostring(e.dram_gbps), e.source:match("^https://") and "url" or "?"))
end
for _, n in ipairs({"NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-40GB", "Tesla V100-SXM2-16GB", "nvidia a100-sxm4-80gb",
  "NVIDIA GeForce RTX 4090", "NVIDIA H200", "Tesla T4", "NVIDIA L4", "NVIDIA A10G", "NVIDIA H100 PCIe",
  "NVIDIA A100 80GB PCIe", "NVIDIA GeForce RTX 3090", "Tesla V100-PCIE-32GB", "NVIDIA A100-PCIE-40GB",
  "NVIDIA B200"}) do show(n) end
-- every built-in entry has a source URL and a DRAM figure
local n, ok = 0, 0
for _, name in ipairs(rlx.peaks.list()) do
  local e = rlx.peaks.datasheet(name)
  n = n + 1
  if e.source:match("^https://") and e.dram_gbps and e.fp32_gflops then ok = ok + 1 end
end
print("entries", n, "with url, dram and fp32", ok)
-- define: a new device, then an override of a built-in one by one of its driver names
rlx.peaks.define{name = "My Accelerator", match = "ACME X1", fp32_gflops = 1000, dram_gbps = 100,
  source = "https://example.com/x1"}
show("ACME X1")
rlx.peaks.define{name = "H100 as clocked here", match = {"NVIDIA H100 80GB HBM3"}, fp32_gflops = 60000,
  dram_gbps = 3000, source = "measured by hand"}
show("NVIDIA H100 80GB HBM3")
print("origin", rlx.peaks.datasheet("NVIDIA H100 80GB HBM3").origin)
rlx.peaks.reset()
show("NVIDIA H100 80GB HBM3")
show("ACME X1")
-- returned entries are copies
local e = rlx.peaks.datasheet("Tesla T4")
e.fp32_gflops = 1
show("Tesla T4")
