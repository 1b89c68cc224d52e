// cuda_driver.h: the few CUDA driver calls the CUPTI backend needs, loaded with dlopen from
// libcuda.so.1 at run time. rlx must not link libcuda: on a machine without the NVIDIA driver
// (like the CPU build machines) a linked libcuda would stop the binary from starting at all.
#pragma once

#include <string>

namespace rlx::counters {

struct CudaDriver {
  using CUresult = int;
  using CUdevice = int;
  using CUcontext = void*;
  CUresult (*init)(unsigned) = nullptr;
  CUresult (*device_count)(int*) = nullptr;
  CUresult (*device_get)(CUdevice*, int) = nullptr;
  CUresult (*device_name)(char*, int, CUdevice) = nullptr;
  CUresult (*primary_retain)(CUcontext*, CUdevice) = nullptr;
  CUresult (*primary_release)(CUdevice) = nullptr;
  CUresult (*ctx_get_current)(CUcontext*) = nullptr;
  CUresult (*ctx_set_current)(CUcontext) = nullptr;
  CUresult (*ctx_synchronize)() = nullptr;
  CUresult (*error_name_fn)(CUresult, const char**) = nullptr;
  // cuProfilerStart/Stop: tell an attached profiler (ncu --profile-from-start off) where to record.
  // Looked up apart: a driver without them still loads (they are null then).
  CUresult (*profiler_start)() = nullptr;
  CUresult (*profiler_stop)() = nullptr;

  bool loaded = false;
  std::string error;  // why not loaded: "no NVIDIA driver (libcuda.so.1 not found)", ...

  // "CUDA_ERROR_NO_DEVICE" for a result code, or "CUresult N".
  std::string name(CUresult r) const;
};

// The process-wide driver table, loaded (and init called) on first use. Never throws.
const CudaDriver& cuda_driver();

}  // namespace rlx::counters
