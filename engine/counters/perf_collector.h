// perf_collector.h: the CPU backend: Linux perf_event_open counters around the measured section,
// for every thread of the process (LibTorch's pool threads exist before the section starts, so
// each is opened by thread id, and threads created later are followed through inherit).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "counters/collector.h"

namespace rlx::counters {

// Event names: cycles, instructions, cache_references, cache_misses, branches, branch_misses
// (hardware), task_clock, page_faults, context_switches, cpu_migrations (software). `events`
// empty means all of them; unknown names throw std::invalid_argument listing the valid ones.
std::unique_ptr<Collector> make_perf_collector(const std::vector<std::string>& events);

// The valid event names, hardware first.
std::vector<std::string> perf_event_names();

// Whether each event can be opened here: {name -> "" when it can, else the reason}. Opens and
// closes one counter per event on the calling thread.
std::vector<std::pair<std::string, std::string>> probe_perf_events();

}  // namespace rlx::counters
