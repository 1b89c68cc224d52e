-- rlx.roofline._labels: the names a chart and a report give compute roofs ("FP32 FMA", "BF16 emulated
-- (FP32 FMA)", "TF32 tensor", "GEMM BF16 (emulated)"), for rlx.roofline and the suspects of
-- rlx.roofline._quality alike.
local M = {}

--- A peaks table, or an environment / run row that carries one under `peaks`.
local function peaks_of(p)
  if type(p) == "table" and type(p.peaks) == "table" then return p.peaks end
  return p
end
M.peaks_of = peaks_of

-- Labels of compute roofs. A CPU's (device = "cpu", as rlx.peaks.measure and the store say) are
-- named by the instruments that measured them; other tables are GPU datasheets or measurements.
local CPU_LABELS = {fp64_gflops = "FP64 FMA", fp32_gflops = "FP32 FMA", bf16_gflops = "BF16 VDPBF16PS",
  bf16_tensor_gflops = "BF16 AMX", fp16_gflops = "FP16"}
-- An arm64 build's peaks (isa_arm64 = 1, engine/peaks/measure.h): its bf16 instruments.
local ARM64_LABELS = {bf16_gflops = "BF16 BFDOT", bf16_tensor_gflops = "BF16 BFMMLA"}
local GPU_LABELS = {fp64_gflops = "FP64", fp64_tensor_gflops = "FP64 tensor", fp32_gflops = "FP32",
  fp16_gflops = "FP16 (non-tensor)", bf16_gflops = "BF16 (non-tensor)", tf32_tensor_gflops = "TF32 tensor",
  fp16_tensor_gflops = "FP16 tensor", bf16_tensor_gflops = "BF16 tensor"}

--- Whether a peaks table says its CPU emulates bf16 (no avx512_bf16 and no AMX on x86-64, no bf16
--- on arm64: bf16 work is converted and runs on the FP32 FMA units).
function M.bf16_emulated(peaks)
  peaks = peaks_of(peaks)
  return type(peaks) == "table" and peaks.bf16_emulated == 1 or false
end

--- The label of a compute roof field as a chart and a report show it ("FP32 FMA", "BF16 emulated
--- (FP32 FMA)", "BF16 AMX", "BF16 BFMMLA" (arm64), "TF32 tensor", "GEMM FP32", "GEMM BF16 (emulated)", ...).
function M.roof_label(peaks, field)
  peaks = peaks_of(peaks) or {}
  local emulated = M.bf16_emulated(peaks)
  local gemm = field:match("^gemm_(.+)_gflops$")
  if gemm then return "GEMM " .. gemm:upper() .. ((gemm == "bf16" and emulated) and " (emulated)" or "") end
  if peaks.device == "cpu" then
    if field == "bf16_gflops" and emulated then return "BF16 emulated (FP32 FMA)" end
    return (peaks.isa_arm64 == 1 and ARM64_LABELS[field]) or CPU_LABELS[field] or field
  end
  return GPU_LABELS[field] or field
end

return M
