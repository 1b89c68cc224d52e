// metrics.cpp: the CUDA metric set, unit conversion and the derived-quantity formulas (see
// metrics.h; the formulas and their sources are in docs/counters.md).
#include "counters/metrics.h"

#include <algorithm>
#include <cctype>

namespace rlx::counters {

namespace {
const std::string kSass = "smsp__sass_thread_inst_executed_op_";
std::string sass(const char* op) { return kSass + op + "_pred_on.sum"; }
}  // namespace

const std::vector<CudaMetric>& cuda_metrics() {
  static const std::vector<CudaMetric> m = [] {
    std::vector<CudaMetric> v = {
        {"gpu__time_duration.sum", "time"},
        {"dram__bytes_read.sum", "dram"},
        {"dram__bytes_write.sum", "dram"},
        {"lts__t_bytes.sum", "l2"},
        {"l1tex__t_bytes.sum", "l1"},
    };
    for (const char* op : {"fadd", "fmul", "ffma"}) v.push_back({sass(op), "fp32"});
    for (const char* op : {"hadd", "hmul", "hfma"}) v.push_back({sass(op), "fp16"});
    for (const char* op : {"dadd", "dmul", "dfma"}) v.push_back({sass(op), "fp64"});
    // Tensor-core operations: GH100 names first, then the GA100 split of fp16 by accumulator. The
    // backend drops the fp16_dst_* names when src_fp16 is valid, so no operation counts twice.
    for (const char* t : {"src_fp16", "src_fp16_dst_fp16", "src_fp16_dst_fp32", "src_bf16_dst_fp32",
                          "src_tf32_dst_fp32", "src_fp64", "src_fp8"}) {
      v.push_back({std::string("sm__ops_path_tensor_") + t + ".sum", "tensor"});
    }
    v.push_back({"pcie__read_bytes.sum", "pcie"});
    v.push_back({"pcie__write_bytes.sum", "pcie"});
    return v;
  }();
  return m;
}

std::vector<std::string> cuda_groups() {
  std::vector<std::string> g;
  for (const auto& m : cuda_metrics()) {
    if (std::find(g.begin(), g.end(), m.group) == g.end()) g.push_back(m.group);
  }
  return g;
}

namespace {
// Factor of one unit without '/', e.g. "Kbyte" -> 1e3 byte, "usecond" -> 1e-6 second.
UnitScale scale_one(const std::string& u) {
  // Nsight Compute 2025.x abbreviates times in its CSV ("us", "ms", "ns"; seen with 2025.3.1 on an
  // H100), where 2023/2024 spelled them out ("usecond"). Case matters: "Ms" is no time.
  static const std::vector<std::pair<std::string, double>> short_times = {
      {"ps", 1e-12}, {"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1.0}};
  for (const auto& [abbrev, f] : short_times) {
    if (u == abbrev) return {f, "second"};
  }
  static const std::vector<std::string> bases = {"byte", "second", "cycle", "inst", "warp", "thread",
                                                 "sector", "request", "hz", "flop", "op", "block"};
  std::string lower = u;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  static const std::vector<std::pair<std::string, double>> words = {
      {"pico", 1e-12}, {"nano", 1e-9}, {"micro", 1e-6}, {"milli", 1e-3},
      {"kilo", 1e3},   {"mega", 1e6},  {"giga", 1e9},   {"tera", 1e12}};
  for (const auto& b : bases) {
    if (lower == b || lower == b + "s") return {1.0, b};
    // CUPTI's dimension units spell the prefix out: "nanosecond".
    for (const auto& [w, f] : words) {
      if (lower == w + b || lower == w + b + "s") return {f, b};
    }
    if (lower.size() == b.size() + 1 && lower.compare(1, std::string::npos, b) == 0) {
      // A one-letter SI prefix. Case matters for m (milli) vs M (mega); ncu writes K, M, G, T for
      // multiples and m, u, n for fractions.
      switch (u[0]) {
        case 'K': case 'k': return {1e3, b};
        case 'M': return {1e6, b};
        case 'G': case 'g': return {1e9, b};
        case 'T': case 't': return {1e12, b};
        case 'm': return {1e-3, b};
        case 'u': return {1e-6, b};
        case 'n': return {1e-9, b};
        case 'p': return {1e-12, b};
        default: break;
      }
    }
  }
  return {1.0, u};
}
}  // namespace

UnitScale parse_unit(const std::string& unit) {
  auto slash = unit.find('/');
  if (slash == std::string::npos) return scale_one(unit);
  UnitScale num = scale_one(unit.substr(0, slash));
  UnitScale den = scale_one(unit.substr(slash + 1));
  return {num.factor / den.factor, num.base + "/" + den.base};
}

nlohmann::json derive(const std::map<std::string, double>& values) {
  nlohmann::json d = nlohmann::json::object();
  nlohmann::json missing = nlohmann::json::array();
  auto has = [&](const std::string& k) { return values.count(k) > 0; };
  auto get = [&](const std::string& k) {
    auto it = values.find(k);
    return it == values.end() ? 0.0 : it->second;
  };
  // A formula over `inputs` with weights: computed when any input is present.
  auto formula = [&](const char* out, const std::vector<std::pair<std::string, double>>& inputs) {
    bool any = std::any_of(inputs.begin(), inputs.end(), [&](const auto& p) { return has(p.first); });
    if (!any) return;
    double sum = 0;
    for (const auto& [name, w] : inputs) {
      if (has(name)) sum += w * get(name);
      else missing.push_back(name);
    }
    d[out] = sum;
  };
  formula("flops_fp32", {{sass("fadd"), 1}, {sass("fmul"), 1}, {sass("ffma"), 2}});
  formula("flops_fp16", {{sass("hadd"), 1}, {sass("hmul"), 1}, {sass("hfma"), 2}});
  formula("flops_fp64", {{sass("dadd"), 1}, {sass("dmul"), 1}, {sass("dfma"), 2}});
  double tensor = 0;
  bool any_tensor = false;
  const std::string tprefix = "sm__ops_path_tensor_src_";
  for (const auto& [name, v] : values) {
    if (name.rfind(tprefix, 0) != 0 || name.size() < 4 || name.compare(name.size() - 4, 4, ".sum") != 0) continue;
    const std::string path = name.substr(tprefix.size(), name.size() - 4 - tprefix.size());  // "fp16_dst_fp32"
    // Integer paths (int8, int4, int1) are not floating-point operations.
    if (path.rfind("int", 0) == 0) continue;
    // A split of a total that is also present would count twice: "_sparsity_on/off" halves of a
    // path, and GA100's fp16_dst_fp16/fp32 when the chip-wide src_fp16 is there.
    auto sp = path.find("_sparsity_");
    if (sp != std::string::npos && has(tprefix + path.substr(0, sp) + ".sum")) continue;
    if (path.rfind("fp16_dst_", 0) == 0 && has(tprefix + "fp16.sum")) continue;
    tensor += v;
    any_tensor = true;
  }
  if (any_tensor) d["flops_tensor"] = tensor;
  if (d.contains("flops_fp32") || d.contains("flops_fp16") || d.contains("flops_fp64") || any_tensor) {
    double f = 0;
    for (const char* k : {"flops_fp32", "flops_fp16", "flops_fp64", "flops_tensor"}) {
      if (d.contains(k)) f += d[k].get<double>();
    }
    d["flops"] = f;
  }
  formula("dram_read_bytes", {{"dram__bytes_read.sum", 1}});
  formula("dram_write_bytes", {{"dram__bytes_write.sum", 1}});
  formula("dram_bytes", {{"dram__bytes_read.sum", 1}, {"dram__bytes_write.sum", 1}});
  formula("l2_bytes", {{"lts__t_bytes.sum", 1}});
  formula("l1_bytes", {{"l1tex__t_bytes.sum", 1}});
  formula("pcie_bytes", {{"pcie__read_bytes.sum", 1}, {"pcie__write_bytes.sum", 1}});
  formula("seconds", {{"gpu__time_duration.sum", 1}});
  if (has("cycles") && has("instructions")) {
    double c = get("cycles"), i = get("instructions");
    if (c > 0) d["ipc"] = i / c;
    if (i > 0) d["cpi"] = c / i;
  }
  // A missing name can be listed twice (dram_bytes repeats dram_read_bytes' inputs).
  std::vector<std::string> names;
  for (const auto& m : missing) {
    if (std::find(names.begin(), names.end(), m.get<std::string>()) == names.end()) names.push_back(m);
  }
  if (!names.empty()) d["missing"] = names;
  return d;
}

bool used_by_formulas(const std::string& name) {
  static const std::vector<std::string> inputs = [] {
    std::vector<std::string> v = {
        "dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_bytes.sum",       "l1tex__t_bytes.sum",
        "pcie__read_bytes.sum", "pcie__write_bytes.sum", "gpu__time_duration.sum", "cycles",
        "instructions"};
    for (const char* op : {"fadd", "fmul", "ffma", "hadd", "hmul", "hfma", "dadd", "dmul", "dfma"})
      v.push_back(sass(op));
    return v;
  }();
  if (std::find(inputs.begin(), inputs.end(), name) != inputs.end()) return true;
  const std::string tensor = "sm__ops_path_tensor_src_";
  return name.rfind(tensor, 0) == 0 && name.rfind(tensor + "int", 0) != 0 && name.size() > 4 &&
         name.compare(name.size() - 4, 4, ".sum") == 0;
}

const std::vector<SeedMetric>& seed_metric_map() {
  static const std::vector<SeedMetric> m = {
      {"flop_count_sp",
       {sass("fadd"), sass("fmul"), sass("ffma")},
       "flops_fp32 = fadd + fmul + 2 x ffma",
       "nvprof-era name (CUPTI event/metric API): current ncu rejects it and CUDA 13 removed that API. "
       "NVIDIA's nvprof transition guide maps it to these three instruction counts, an FMA counting 2. "
       "Neither counts tensor-core math (TF32): rlx adds sm__ops_path_tensor_src_tf32_dst_fp32 where the "
       "chip has it"},
      {"flop_count_hp",
       {sass("hadd"), sass("hmul"), sass("hfma")},
       "flops_fp16 = hadd + hmul + 2 x hfma",
       "nvprof-era name, rejected by current ncu. Counts half-precision instructions on the CUDA cores, one "
       "operation per thread instruction (as NERSC and LIKWID count; Nsight Compute's Half roofline counts a "
       "packed half2 instruction twice). AMP's convolutions and matrix products run on tensor cores, which "
       "neither flop_count_hp nor these count: rlx adds sm__ops_path_tensor_src_* (names differ per chip)"},
      {"dram__bytes_read.sum", {"dram__bytes_read.sum"}, "dram_read_bytes", "accepted as written"},
      {"dram__bytes_write.sum",
       {"dram__bytes_write.sum"},
       "dram_write_bytes; dram_bytes = read + write",
       "accepted as written"},
      {"pcie__read_bytes.sum",
       {"pcie__read_bytes.sum"},
       "pcie_bytes = read + write",
       "accepted as written (device-level counter: ncu may not collect it on every GPU or virtual machine)"},
      {"pcie__write_bytes.sum",
       {"pcie__write_bytes.sum"},
       "pcie_bytes = read + write",
       "accepted as written"},
  };
  return m;
}

}  // namespace rlx::counters
