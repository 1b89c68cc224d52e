// cupti_backend.h: the NVIDIA backend through CUPTI's Range Profiling API (cupti_range_profiler.h)
// and Profiler Host API (cupti_profiler_host.h). The host half (metric validation, pass counts)
// runs without a GPU from a chip name; the target half needs the driver, loaded with dlopen.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "counters/collector.h"

namespace rlx::counters {

// Whether CUPTI support was compiled in (RLX_HAVE_CUPTI).
bool cupti_compiled();

// Host-API plan for `metrics` on `chip` ("GH100", "GA100", ...), no GPU needed:
//   {chip, valid = [names], invalid = {name -> reason}, passes = (all valid metrics in one config),
//    groups = [[names], ...] (each needs one pass), group_passes = [1, ...]}.
// Tensor names: the GA100 fp16_dst_* split is dropped when the chip has src_fp16 (no double count).
// Throws std::runtime_error when CUPTI is not compiled in or the chip is unknown.
nlohmann::json cupti_host_plan(const std::string& chip, const std::vector<std::string>& metrics);

// Probe of device `index`: {available, reason (when not), name, chip}. Never throws.
nlohmann::json cupti_device_info(int index);

// The metrics of the selected groups (cuda_groups() names; empty = all). Throws
// std::invalid_argument for an unknown group.
std::vector<std::string> cuda_metrics_for(const std::vector<std::string>& groups);

// A collector for device `index`. per_kernel: auto range + kernel replay on the first measured
// iteration (per-kernel values); otherwise one user range per measured iteration, pass i of the
// configuration on measured iteration i, nothing replayed.
std::unique_ptr<Collector> make_cupti_collector(int index, const std::vector<std::string>& metrics, bool per_kernel);

}  // namespace rlx::counters
