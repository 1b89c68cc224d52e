// cuda_driver.cpp: dlopen/dlsym of libcuda.so.1 (see cuda_driver.h).
#include "counters/cuda_driver.h"

#include <dlfcn.h>
#include <fmt/format.h>

namespace rlx::counters {

std::string CudaDriver::name(CUresult r) const {
  const char* s = nullptr;
  if (error_name_fn && error_name_fn(r, &s) == 0 && s) return s;
  return fmt::format("CUresult {}", r);
}

namespace {
template <typename F>
bool sym(void* h, const char* name, F& out) {
  out = reinterpret_cast<F>(dlsym(h, name));
  return out != nullptr;
}

CudaDriver load() {
  CudaDriver d;
  // RTLD_GLOBAL: libcupti resolves driver symbols itself; a second dlopen shares this handle.
  void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (!h) {
    d.error = "no NVIDIA driver (libcuda.so.1 not found)";
    return d;
  }
  bool ok = sym(h, "cuInit", d.init) && sym(h, "cuDeviceGetCount", d.device_count) &&
            sym(h, "cuDeviceGet", d.device_get) && sym(h, "cuDeviceGetName", d.device_name) &&
            sym(h, "cuDevicePrimaryCtxRetain", d.primary_retain) &&
            sym(h, "cuDevicePrimaryCtxRelease_v2", d.primary_release) &&
            sym(h, "cuCtxGetCurrent", d.ctx_get_current) && sym(h, "cuCtxSetCurrent", d.ctx_set_current) &&
            sym(h, "cuCtxSynchronize", d.ctx_synchronize) && sym(h, "cuGetErrorName", d.error_name_fn);
  if (!ok) {
    d.error = fmt::format("libcuda.so.1 lacks a driver function rlx needs ({}): update the NVIDIA driver", dlerror());
    return d;
  }
  sym(h, "cuProfilerStart", d.profiler_start);
  sym(h, "cuProfilerStop", d.profiler_stop);
  CudaDriver::CUresult r = d.init(0);
  if (r != 0) {
    d.error = fmt::format("cuInit failed: {} (no usable NVIDIA GPU)", d.name(r));
    return d;
  }
  d.loaded = true;
  return d;
}
}  // namespace

const CudaDriver& cuda_driver() {
  static const CudaDriver d = load();
  return d;
}

}  // namespace rlx::counters
