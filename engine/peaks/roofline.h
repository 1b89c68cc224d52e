// roofline.h: the roofline model as plain arithmetic, with every unit in the names.
//
// A point is (FLOP, byte, second) measured for some piece of work plus the two roofs it is judged
// against (a compute peak in FLOP/s and a memory bandwidth in byte/s). From these follow the
// arithmetic intensity, the attained and attainable GFLOP/s, the ridge and which roof bounds the
// point. A point above its roof (attained > attainable, usually a sign of wrong peaks or of
// under-counted bytes) is flagged, never clipped. Several ceilings (per precision, per memory
// level) are plain lists of named roofs built from a peaks table.
#pragma once

#include <string>
#include <vector>

namespace rlx::peaks {

struct RooflineInput {
  double flops = 0;           // FLOP of the work (a fused multiply-add counts 2)
  double bytes = 0;           // bytes moved at the memory level judged against
  double seconds = 0;         // time of the work
  double peak_flops = 0;      // compute roof, FLOP/s
  double peak_bytes_per_s = 0;  // memory roof, byte/s
};

struct RooflinePoint {
  double ai_flops_per_byte = 0;   // flops / bytes
  double gflops = 0;              // attained: flops / seconds / 1e9
  double attainable_gflops = 0;   // min(ai * peak_bw, peak_flops) / 1e9
  double ridge_ai = 0;            // peak_flops / peak_bw, FLOP/byte
  double efficiency = 0;          // gflops / attainable_gflops (may exceed 1: see above_roof)
  std::string bound;              // "memory" when ai < ridge, else "compute"
  bool above_roof = false;        // attained exceeds attainable by more than rounding
  bool above_compute_roof = false;  // attained exceeds peak_flops (above_roof_by)
  bool above_memory_roof = false;   // attained exceeds ai * peak_bw (above_roof_by)
};

// Throws std::invalid_argument naming the bad field when a value is negative, zero where it
// must not be (bytes, seconds, the peaks), or not finite.
RooflinePoint roofline_point(const RooflineInput& in);

// The placement of a point known by its intensity and attained rate (a mean over repeats, a
// chart's point): the same fields as roofline_point, from the same rules. Throws as it does for a
// negative or non-finite value, or a roof that is not positive.
RooflinePoint roofline_place(double ai_flops_per_byte, double attained_flops_per_s, double peak_flops,
                             double peak_bytes_per_s);

// Attainable FLOP/s at intensity ai under one compute roof and one memory roof.
double attainable_flops(double ai_flops_per_byte, double peak_flops, double peak_bytes_per_s);

// The ridge: the intensity (FLOP/byte) where the memory roof meets the compute roof.
double ridge_ai(double peak_flops, double peak_bytes_per_s);

// "memory" when ai is below the ridge, else "compute" (at exactly the ridge both roofs meet: the
// memory roof no longer limits).
std::string bound_of(double ai_flops_per_byte, double ridge_ai_flops_per_byte);

// Whether an attained rate lies above a roof by more than rounding: a relative tolerance of 1e-9,
// so that a point computed from the roof itself is not flagged. Every "above its roof" is this.
bool above_roof_by(double attained, double roof);

// One roof of a roofline chart: a compute ceiling (FLOP/s) or a memory ceiling (byte/s).
struct Ceiling {
  std::string name;   // the peaks field it came from, e.g. "fp32_gflops", "l2_gbps"
  std::string kind;   // "compute" or "memory"
  std::string label;  // for plots: "FP32 FMA", "L2", "DRAM", "GEMM BF16", ...
  double value = 0;   // FLOP/s for compute, byte/s for memory (base units)
};

// Recognised peaks fields, in decimal GFLOP/s or GB/s, and the ceiling each becomes. Fields that
// are absent, zero or negative are skipped; the result is ordered compute first, highest first,
// then memory, highest first.
struct PeakField {
  std::string name;
  double value = 0;
};
std::vector<Ceiling> ceilings_from_fields(const std::vector<PeakField>& fields);

// The peaks field holding the compute roof for a precision ("fp32", "fp64", "tf32", "fp16",
// "bf16"): the first present of <p>_tensor_gflops, <p>_gflops, gemm_<p>_gflops. Returns the
// candidate names in that order so a caller can search its own table.
std::vector<std::string> compute_field_candidates(const std::string& precision);

// The peaks field for a memory level ("dram", "l1", "l2", "l3"): <level>_gbps.
std::string memory_field(const std::string& level);

}  // namespace rlx::peaks
