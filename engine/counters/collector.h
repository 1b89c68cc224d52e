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

// device: "cpu", "cuda" or "cuda:N"; groups: empty for the default set of that backend.
// Never throws for an unavailable backend: the collector reports available=false and a reason.
std::unique_ptr<Collector> make_collector(const std::string& device, const std::vector<std::string>& groups);

}  // namespace rlx::counters
