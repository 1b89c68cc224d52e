-- rlx.peaks._datasheet: published peak figures of common NVIDIA GPUs, as data. rlx.peaks.datasheet
-- reads this table (embedded in the binary like every module, so it works without the source tree);
-- users add or override entries with rlx.peaks.define.
--
-- Units: decimal GFLOP/s (1e9 FLOP/s) and decimal GB/s (1e9 byte/s). Every *_tensor_gflops figure
-- is DENSE: NVIDIA's datasheets print tensor figures "with sparsity" (2:4 structured, 2x the
-- dense rate) for Ampere and later; those were halved here. fp16_gflops / bf16_gflops are the
-- non-tensor (CUDA core) rates where they differ from FP32. Fields whose figure is not printed
-- by the source but follows from the architecture's documented rate (e.g. FP64 = 1/64 of FP32 on
-- GA102 and AD10x) are listed in `derived`. `match` holds the names the driver reports
-- (nvidia-smi --query-gpu=name, cudaDeviceProp::name); see rlx.peaks.datasheet for the rules.
local VOLTA = "https://images.nvidia.com/content/technologies/volta/pdf/volta-v100-datasheet-update-us-1165301-r5.pdf"
local A100_DS = "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/" ..
  "nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf"
local AMPERE_WP = "https://images.nvidia.com/aem-dam/en-zz/Solutions/data-center/nvidia-ampere-architecture-whitepaper.pdf"
local H100_DS = "https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet"
local HOPPER_WP = "https://resources.nvidia.com/en-us-tensor-core/gtc22-whitepaper-hopper"
local H200 = "https://www.nvidia.com/en-us/data-center/h200/"
local L4 = "https://www.nvidia.com/en-us/data-center/l4/"
local T4 = "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/tesla-t4/t4-tensor-core-datasheet-951643.pdf"
local A10G = "https://www.baseten.co/blog/nvidia-a10-vs-a10g-for-ml-model-inference/"
local ADA_WP = "https://images.nvidia.com/aem-dam/Solutions/geforce/ada/nvidia-ada-gpu-architecture.pdf"
local GA102_WP = "https://www.nvidia.com/content/PDF/nvidia-ampere-ga-102-gpu-architecture-whitepaper-v2.pdf"

local function a100(name, match, dram_gbps, memory_gb)
  return {name = name, match = match, architecture = "Ampere (GA100)", memory_gb = memory_gb,
    fp64_gflops = 9700, fp64_tensor_gflops = 19500, fp32_gflops = 19500,
    fp16_gflops = 78000, bf16_gflops = 39000,
    tf32_tensor_gflops = 156000, fp16_tensor_gflops = 312000, bf16_tensor_gflops = 312000,
    dram_gbps = dram_gbps, source = A100_DS, sources = {A100_DS, AMPERE_WP},
    notes = "tensor figures: datasheet with-sparsity values halved (156/312/312 TFLOPS dense); " ..
      "non-tensor FP16 78 and BF16 39 TFLOPS from the Ampere whitepaper"}
end

return {
  {name = "Tesla V100-SXM2", match = {"Tesla V100-SXM2-16GB", "Tesla V100-SXM2-32GB"},
    architecture = "Volta (GV100)", memory_gb = 32,
    fp64_gflops = 7800, fp32_gflops = 15700, fp16_gflops = 31400, fp16_tensor_gflops = 125000,
    dram_gbps = 900, source = VOLTA, sources = {VOLTA},
    notes = "no TF32 or BF16 tensor cores; fp16_tensor is FP16 mixed precision (FP32 accumulate); " ..
      "fp16 non-tensor = 2x FP32 (derived)", derived = {"fp16_gflops"}},
  {name = "Tesla V100-PCIE", match = {"Tesla V100-PCIE-16GB", "Tesla V100-PCIE-32GB"},
    architecture = "Volta (GV100)", memory_gb = 32,
    fp64_gflops = 7000, fp32_gflops = 14000, fp16_gflops = 28000, fp16_tensor_gflops = 112000,
    dram_gbps = 900, source = VOLTA, sources = {VOLTA},
    notes = "no TF32 or BF16 tensor cores; fp16 non-tensor = 2x FP32 (derived)", derived = {"fp16_gflops"}},
  a100("NVIDIA A100-SXM4-40GB", {"NVIDIA A100-SXM4-40GB"}, 1555, 40),
  a100("NVIDIA A100-SXM4-80GB", {"NVIDIA A100-SXM4-80GB"}, 2039, 80),
  a100("NVIDIA A100-PCIE-40GB", {"NVIDIA A100-PCIE-40GB"}, 1555, 40),
  a100("NVIDIA A100 80GB PCIe", {"NVIDIA A100 80GB PCIe", "NVIDIA A100-PCIE-80GB"}, 1935, 80),
  {name = "NVIDIA H100 SXM5 80GB", match = {"NVIDIA H100 80GB HBM3", "NVIDIA H100 SXM5 80GB"},
    architecture = "Hopper (GH100)", memory_gb = 80,
    fp64_gflops = 34000, fp64_tensor_gflops = 67000, fp32_gflops = 67000,
    fp16_gflops = 133800, bf16_gflops = 133800,
    tf32_tensor_gflops = 494500, fp16_tensor_gflops = 989500, bf16_tensor_gflops = 989500,
    dram_gbps = 3350, source = H100_DS, sources = {H100_DS, HOPPER_WP},
    notes = "tensor figures: datasheet with-sparsity values (989/1979/1979 TFLOPS) halved; " ..
      "non-tensor FP16/BF16 133.8 TFLOPS from the Hopper whitepaper"},
  {name = "NVIDIA H100 PCIe", match = {"NVIDIA H100 PCIe"},
    architecture = "Hopper (GH100)", memory_gb = 80,
    fp64_gflops = 26000, fp64_tensor_gflops = 51000, fp32_gflops = 51000,
    fp16_gflops = 102400, bf16_gflops = 102400,
    tf32_tensor_gflops = 378000, fp16_tensor_gflops = 756500, bf16_tensor_gflops = 756500,
    dram_gbps = 2000, source = H100_DS, sources = {H100_DS, HOPPER_WP},
    notes = "tensor figures: datasheet with-sparsity values (756/1513/1513 TFLOPS) halved; " ..
      "non-tensor FP16/BF16 102.4 TFLOPS from the Hopper whitepaper"},
  {name = "NVIDIA H100 NVL", match = {"NVIDIA H100 NVL"},
    architecture = "Hopper (GH100)", memory_gb = 94,
    fp64_gflops = 30000, fp64_tensor_gflops = 60000, fp32_gflops = 60000,
    tf32_tensor_gflops = 417500, fp16_tensor_gflops = 835500, bf16_tensor_gflops = 835500,
    dram_gbps = 3900, source = H100_DS, sources = {H100_DS},
    notes = "tensor figures: datasheet with-sparsity values (835/1671/1671 TFLOPS) halved"},
  {name = "NVIDIA H200", match = {"NVIDIA H200", "NVIDIA H200 SXM"},
    architecture = "Hopper (GH100)", memory_gb = 141,
    fp64_gflops = 34000, fp64_tensor_gflops = 67000, fp32_gflops = 67000,
    tf32_tensor_gflops = 494500, fp16_tensor_gflops = 989500, bf16_tensor_gflops = 989500,
    dram_gbps = 4800, source = H200, sources = {H200},
    notes = "H200 SXM; tensor figures: with-sparsity values (989/1979/1979 TFLOPS) halved"},
  {name = "NVIDIA H200 NVL", match = {"NVIDIA H200 NVL"},
    architecture = "Hopper (GH100)", memory_gb = 141,
    fp64_gflops = 30000, fp64_tensor_gflops = 60000, fp32_gflops = 60000,
    tf32_tensor_gflops = 417500, fp16_tensor_gflops = 835500, bf16_tensor_gflops = 835500,
    dram_gbps = 4800, source = H200, sources = {H200},
    notes = "tensor figures: with-sparsity values (835/1671/1671 TFLOPS) halved"},
  {name = "NVIDIA L4", match = {"NVIDIA L4"},
    architecture = "Ada Lovelace (AD104)", memory_gb = 24,
    fp64_gflops = 473, fp32_gflops = 30300, fp16_gflops = 30300,
    tf32_tensor_gflops = 60000, fp16_tensor_gflops = 121000, bf16_tensor_gflops = 121000,
    dram_gbps = 300, source = L4, sources = {L4, ADA_WP},
    notes = "tensor figures: with-sparsity values (120/242/242 TFLOPS) halved; FP64 not on the " ..
      "datasheet: 1/64 of FP32 (Ada); FP16 non-tensor = FP32 rate (Ada)", derived = {"fp64_gflops", "fp16_gflops"}},
  {name = "Tesla T4", match = {"Tesla T4", "NVIDIA T4"},
    architecture = "Turing (TU104)", memory_gb = 16,
    fp64_gflops = 253, fp32_gflops = 8100, fp16_gflops = 16200, fp16_tensor_gflops = 65000,
    dram_gbps = 320, source = T4, sources = {T4},
    notes = "no TF32 or BF16 tensor cores; fp16_tensor is mixed FP16/FP32; FP64 (1/32 of FP32) and " ..
      "FP16 non-tensor (2x FP32) are Turing rates, not on the datasheet", derived = {"fp64_gflops", "fp16_gflops"}},
  {name = "NVIDIA A10G", match = {"NVIDIA A10G"},
    architecture = "Ampere (GA102)", memory_gb = 24,
    fp64_gflops = 547, fp32_gflops = 35000, fp16_gflops = 35000,
    tf32_tensor_gflops = 35000, fp16_tensor_gflops = 70000, bf16_tensor_gflops = 70000,
    dram_gbps = 600, source = A10G, sources = {A10G, "https://aws.amazon.com/ec2/instance-types/g5/"},
    notes = "AWS-only part with no NVIDIA datasheet: figures as AWS states them (via the source); " ..
      "FP64 = 1/64 of FP32 and FP16 non-tensor = FP32 rate (GA102)", derived = {"fp64_gflops", "fp16_gflops"}},
  {name = "NVIDIA GeForce RTX 4090", match = {"NVIDIA GeForce RTX 4090"},
    architecture = "Ada Lovelace (AD102)", memory_gb = 24,
    fp64_gflops = 1290, fp32_gflops = 82600, fp16_gflops = 82600,
    tf32_tensor_gflops = 82600, fp16_tensor_gflops = 165200, bf16_tensor_gflops = 165200,
    dram_gbps = 1008, source = ADA_WP, sources = {ADA_WP},
    notes = "tensor FP16/BF16 with FP32 accumulate, as mixed-precision training uses (330.3 TFLOPS " ..
      "with FP16 accumulate); FP64 = 1/64 of FP32", derived = {"fp64_gflops"}},
  {name = "NVIDIA GeForce RTX 3090", match = {"NVIDIA GeForce RTX 3090"},
    architecture = "Ampere (GA102)", memory_gb = 24,
    fp64_gflops = 556, fp32_gflops = 35600, fp16_gflops = 35600,
    tf32_tensor_gflops = 35600, fp16_tensor_gflops = 71000, bf16_tensor_gflops = 71000,
    dram_gbps = 936, source = GA102_WP, sources = {GA102_WP},
    notes = "tensor FP16/BF16 with FP32 accumulate (142 TFLOPS with FP16 accumulate); FP64 = 1/64 of FP32",
    derived = {"fp64_gflops"}},
}
