// collector.h: the counters interface the trainer and the bindings use. A Collector is an
// IterationObserver: it starts counting at on_measured_begin, may spread metric groups over
// measured iterations, and result() reports what it measured, in base units, with its source,
// and for anything it could not measure, why. Backends: CUPTI (cuda devices), perf_event (cpu).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "train/observer.h"

namespace rlx::counters {

class Collector : public rlx::train::IterationObserver {
 public:
  // json: {source = "cupti"|"perf_event", available = bool, reason = "..." (when not),
  //        values = {name -> number}, units = {name -> unit}, unsupported = {name -> reason},
  //        derived = {flops =, dram_bytes =, l2_bytes =, ipc =, ...}}
  virtual nlohmann::json result() const = 0;
};

// device: "cpu", "cuda" or "cuda:N"; groups: empty for the default set of that backend (cpu:
// perf event names such as "cycles", "task_clock"; cuda: "time", "dram", "l2", "l1", "fp32",
// "fp16", "fp64", "tensor", "pcie", plus "per_kernel" for auto range + kernel replay).
// Never throws for an unavailable backend: the collector reports available=false and a reason.
// Throws std::invalid_argument for a malformed device or an unknown group, naming the valid ones.
std::unique_ptr<Collector> make_collector(const std::string& device, const std::vector<std::string>& groups);

// {device, source, available, reason (when not)}: whether counters can be collected on device.
nlohmann::json availability(const std::string& device);

// Which metrics the device supports and why others are missing:
//   {device, source, available, reason, metrics = [{name, group, unit, supported, reason}],
//    chip, passes, groups (cuda: one-pass groups from the host API)}.
// chip (cuda only, may be empty): plan for that chip with the CUPTI host API, no GPU needed.
nlohmann::json list_metrics(const std::string& device, const std::string& chip = "");

}  // namespace rlx::counters
