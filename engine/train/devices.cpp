// devices.cpp: devices() (see devices.h). A LibTorch translation unit: CUDA properties come from
// LibTorch's CUDA context in CUDA builds; the CPU's name from engine/env's cpuinfo reader.
#include "train/devices.h"

#include <fmt/format.h>
#include <torch/torch.h>
#include <unistd.h>

#include <thread>

#ifdef RLX_HAVE_TORCH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <ATen/detail/CUDAHooksInterface.h>
#endif

#include "env/env.h"
#include "train/precisions.h"

namespace rlx::train {
namespace {

nlohmann::json cpu_device() {
  nlohmann::json cpu = {{"kind", "cpu"}, {"id", "cpu"}};
  const std::string model = env::cpu_model();
  cpu["name"] = model.empty() ? std::string("cpu") : model;
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) cpu["memory_bytes"] = static_cast<int64_t>(pages) * page;
  cpu["threads"] = std::thread::hardware_concurrency();
  cpu["refused_precisions"] = refused_precisions("cpu");
  return cpu;
}

}  // namespace

nlohmann::json devices() {
  nlohmann::json out = nlohmann::json::array();
  out.push_back(cpu_device());
#ifdef RLX_HAVE_TORCH_CUDA
  if (!torch::cuda::is_available()) return out;
  for (int64_t i = 0; i < static_cast<int64_t>(torch::cuda::device_count()); ++i) {
    const auto* p = at::cuda::getDeviceProperties(static_cast<c10::DeviceIndex>(i));
    out.push_back({{"kind", "cuda"},
                   {"id", fmt::format("cuda:{}", i)},
                   {"name", p->name},
                   {"memory_bytes", static_cast<int64_t>(p->totalGlobalMem)},
                   {"multiprocessors", p->multiProcessorCount},
                   {"capability", fmt::format("{}.{}", p->major, p->minor)},
                   {"refused_precisions", refused_precisions(fmt::format("cuda:{}", i))}});
  }
#endif
  return out;
}

std::string cudnn_version_text(long version) {
  if (version <= 0) return "";
  const long major_unit = version >= 90000 ? 10000 : 1000;
  return fmt::format("{}.{}.{}", version / major_unit, version % major_unit / 100, version % 100);
}

std::string cudnn_version() {
#ifdef RLX_HAVE_TORCH_CUDA
  const auto& hooks = at::detail::getCUDAHooks();
  if (hooks.hasCuDNN()) return cudnn_version_text(hooks.versionCuDNN());
#endif
  return "";
}

}  // namespace rlx::train
