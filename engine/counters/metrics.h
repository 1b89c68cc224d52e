// metrics.h: the metric vocabulary shared by the counter backends and the Nsight Compute import:
// which NVIDIA metrics rlx collects, how their units convert to base units (SI prefixes are
// decimal: Kbyte = 1000 bytes), and the derived quantities (FLOPs by precision, bytes per memory
// level, IPC/CPI) computed by one set of formulas so CUPTI, ncu and perf_event agree.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace rlx::counters {

// One NVIDIA metric rlx asks for, with the group it belongs to ("time", "dram", "l2", "l1",
// "fp32", "fp16", "fp64", "tensor", "pcie"): groups are what users select with counters={...}.
struct CudaMetric {
  std::string name;
  std::string group;
};

// The default CUDA metric set, in collection order. Tensor names are candidates: the backend keeps
// the ones the chip's host API validates (they differ between GA100 and GH100).
const std::vector<CudaMetric>& cuda_metrics();
// Names of the groups, in the order above.
std::vector<std::string> cuda_groups();

// A unit string as ncu prints it ("Kbyte", "usecond", "Gbyte/second", "cycle", "inst", "%") turned
// into a factor to base units and the base unit's name ("byte", "second", "byte/second"). Units
// rlx does not know keep factor 1 and their own name.
struct UnitScale {
  double factor = 1.0;
  std::string base;
};
UnitScale parse_unit(const std::string& unit);

// Derived quantities from metric values in base units (keys are metric names such as
// "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"). Only quantities with at least one input
// present are returned; a missing input of a present formula counts as 0 and is listed in
// "missing" (json array of metric names). Formulas (docs/counters.md):
//   flops_fp32 = fadd + fmul + 2 ffma; flops_fp64 = dadd + dmul + 2 dfma;
//   flops_fp16 = hadd + hmul + 2 hfma (per thread instruction, as NERSC and LIKWID count it);
//   flops_tensor = sum of the floating-point sm__ops_path_tensor_src_*.sum (already in FLOPs;
//   integer paths and splits of a total also present are left out); flops = their sum;
//   dram_bytes = dram__bytes_read + dram__bytes_write; l2_bytes = lts__t_bytes;
//   l1_bytes = l1tex__t_bytes; pcie_bytes = read + write; seconds = gpu__time_duration;
//   ipc = instructions / cycles; cpi = cycles / instructions.
nlohmann::json derive(const std::map<std::string, double>& values);

// Whether a metric is an input of derive()'s formulas (so an imported value that is not is named
// as unused rather than silently summed).
bool used_by_formulas(const std::string& name);

// Seed 000's Nsight metric list (its code/metric_names_ncu.txt) name by name: the names current
// ncu (2019.1 and later) and CUPTI's profiler APIs accept for it, how rlx combines them, and why
// it changed. nvprof-era names (flop_count_sp, flop_count_hp) belong to the CUPTI event/metric
// API, which current ncu rejects and CUDA 13 removed (docs/counters.md has the table).
struct SeedMetric {
  std::string seed;                  // as the seed writes it
  std::vector<std::string> current;  // accepted by ncu --metrics and CUPTI range profiling
  std::string formula;               // what rlx computes from them
  std::string note;
};
const std::vector<SeedMetric>& seed_metric_map();

}  // namespace rlx::counters
