// profiler_range.h: cuProfilerStart / cuProfilerStop (through the driver rlx loads with dlopen)
// around the counted iterations of a run, so an external profiler that waits for them records
// exactly those iterations: seed 000's `ncu --profile-from-start off ...`, or Nsight Systems with
// `--capture-range=cudaProfilerApi`. Without a profiler attached both calls do nothing.
#pragma once

#include <memory>
#include <string>

#include "train/observer.h"

namespace rlx::counters {

// An observer that starts the profiler at the counted section's begin and stops it at its end.
// Never throws; where the driver or a current context is missing it does nothing, and why() says
// so ("" when it started and stopped the profiler).
class ProfilerRange : public rlx::train::IterationObserver {
 public:
  void on_measured_begin(int measured_iters) override;
  void on_measured_end() override;
  const std::string& why() const { return why_; }
  bool started() const { return started_; }

 private:
  bool started_ = false;
  std::string why_ = "the counted section did not run";
};

// Whether a CUDA profiling tool is injected into this process: Nsight Compute and Nsight Systems
// set CUDA_INJECTION64_PATH in the processes they profile.
bool cuda_tool_attached();

}  // namespace rlx::counters
