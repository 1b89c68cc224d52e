// profiler_range.cpp: see profiler_range.h.
#include "counters/profiler_range.h"

#include <cstdlib>

#include "counters/cuda_driver.h"

namespace rlx::counters {

void ProfilerRange::on_measured_begin(int) {
  const CudaDriver& d = cuda_driver();
  if (!d.loaded || !d.profiler_start || !d.profiler_stop) {
    why_ = d.loaded ? "the driver has no cuProfilerStart" : d.error;
    return;
  }
  CudaDriver::CUcontext ctx = nullptr;
  if (d.ctx_get_current(&ctx) != 0 || !ctx) {
    why_ = "no current CUDA context on the training thread";
    return;
  }
  const CudaDriver::CUresult r = d.profiler_start();
  if (r != 0) {
    why_ = "cuProfilerStart failed: " + d.name(r);
    return;
  }
  started_ = true;
  why_.clear();
}

void ProfilerRange::on_measured_end() {
  if (!started_ || !why_.empty()) return;
  const CudaDriver& d = cuda_driver();
  const CudaDriver::CUresult r = d.profiler_stop();
  if (r != 0) why_ = "cuProfilerStop failed: " + d.name(r);
}

bool cuda_tool_attached() {
  const char* v = std::getenv("CUDA_INJECTION64_PATH");
  return v != nullptr && *v != '\0';
}

}  // namespace rlx::counters
