// roofline.cpp: the roofline arithmetic (see roofline.h). Everything is computed in base units
// (FLOP, byte, second) and only converted to GFLOP/s (decimal, 1e9) at the end, so no 1024-based
// factor can sneak in.
#include "peaks/roofline.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace rlx::peaks {
namespace {

void require(double v, const char* name, bool allow_zero) {
  if (!std::isfinite(v)) throw std::invalid_argument(std::string(name) + " must be a finite number");
  if (v < 0 || (!allow_zero && v == 0)) {
    throw std::invalid_argument(std::string(name) + (allow_zero ? " must be >= 0" : " must be > 0") +
                                ", got " + std::to_string(v));
  }
}

}  // namespace

double attainable_flops(double ai, double peak_flops, double peak_bytes_per_s) {
  return std::min(ai * peak_bytes_per_s, peak_flops);
}

double ridge_ai(double peak_flops, double peak_bytes_per_s) { return peak_flops / peak_bytes_per_s; }

std::string bound_of(double ai, double ridge) { return ai < ridge ? "memory" : "compute"; }

bool above_roof_by(double attained, double roof) { return attained > roof * (1 + 1e-9); }

RooflinePoint roofline_place(double ai, double attained, double peak_flops, double peak_bytes_per_s) {
  require(ai, "ai (FLOP/byte)", true);
  require(attained, "attained (FLOP/s)", true);
  require(peak_flops, "peak_flops (FLOP/s)", false);
  require(peak_bytes_per_s, "peak_bw (byte/s)", false);
  RooflinePoint p;
  p.ai_flops_per_byte = ai;
  const double attainable = attainable_flops(ai, peak_flops, peak_bytes_per_s);
  p.gflops = attained / 1e9;
  p.attainable_gflops = attainable / 1e9;
  p.ridge_ai = ridge_ai(peak_flops, peak_bytes_per_s);
  p.efficiency = attained / attainable;
  p.bound = bound_of(ai, p.ridge_ai);
  p.above_roof = above_roof_by(attained, attainable);
  p.above_compute_roof = above_roof_by(attained, peak_flops);
  p.above_memory_roof = above_roof_by(attained, ai * peak_bytes_per_s);
  return p;
}

RooflinePoint roofline_point(const RooflineInput& in) {
  require(in.flops, "flops (FLOP)", true);
  require(in.bytes, "bytes (byte)", false);
  require(in.seconds, "seconds (s)", false);
  require(in.peak_flops, "peak_flops (FLOP/s)", false);
  require(in.peak_bytes_per_s, "peak_bw (byte/s)", false);
  return roofline_place(in.flops / in.bytes, in.flops / in.seconds, in.peak_flops, in.peak_bytes_per_s);
}

std::vector<std::string> compute_field_candidates(const std::string& precision) {
  if (precision == "fp32" || precision == "fp64") return {precision + "_gflops", "gemm_" + precision + "_gflops"};
  if (precision == "tf32" || precision == "fp16" || precision == "bf16") {
    return {precision + "_tensor_gflops", precision + "_gflops", "gemm_" + precision + "_gflops"};
  }
  throw std::invalid_argument("unknown precision '" + precision +
                              "' (valid precisions: fp32, fp64, tf32, fp16, bf16)");
}

std::string memory_field(const std::string& level) {
  if (level == "dram" || level == "l1" || level == "l2" || level == "l3") return level + "_gbps";
  throw std::invalid_argument("unknown memory level '" + level + "' (valid levels: dram, l1, l2, l3)");
}

std::vector<Ceiling> ceilings_from_fields(const std::vector<PeakField>& fields) {
  // Field name -> (kind, label). Measured CPU fields and datasheet fields share one vocabulary.
  static const std::map<std::string, std::pair<std::string, std::string>> known = {
      {"fp64_gflops", {"compute", "FP64"}},
      {"fp64_tensor_gflops", {"compute", "FP64 tensor"}},
      {"fp32_gflops", {"compute", "FP32"}},
      {"fp16_gflops", {"compute", "FP16 (non-tensor)"}},
      {"bf16_gflops", {"compute", "BF16 (non-tensor)"}},
      {"tf32_tensor_gflops", {"compute", "TF32 tensor"}},
      {"fp16_tensor_gflops", {"compute", "FP16 tensor"}},
      {"bf16_tensor_gflops", {"compute", "BF16 tensor"}},
      {"gemm_fp64_gflops", {"compute", "GEMM FP64"}},
      {"gemm_fp32_gflops", {"compute", "GEMM FP32"}},
      {"gemm_tf32_gflops", {"compute", "GEMM TF32"}},
      {"gemm_fp16_gflops", {"compute", "GEMM FP16"}},
      {"gemm_bf16_gflops", {"compute", "GEMM BF16"}},
      {"dram_gbps", {"memory", "DRAM"}},
      {"l1_gbps", {"memory", "L1"}},
      {"l2_gbps", {"memory", "L2"}},
      {"l3_gbps", {"memory", "L3"}},
  };
  std::vector<Ceiling> out;
  for (const auto& f : fields) {
    auto it = known.find(f.name);
    if (it == known.end() || !std::isfinite(f.value) || f.value <= 0) continue;
    // Both GFLOP/s and GB/s are decimal: 1e9 converts to FLOP/s and byte/s.
    out.push_back({f.name, it->second.first, it->second.second, f.value * 1e9});
  }
  std::stable_sort(out.begin(), out.end(), [](const Ceiling& a, const Ceiling& b) {
    if (a.kind != b.kind) return a.kind == "compute";
    if (a.value != b.value) return a.value > b.value;
    return a.name < b.name;  // equal roofs in a stable, documented order
  });
  return out;
}

}  // namespace rlx::peaks
