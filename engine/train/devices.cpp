// devices.cpp: devices() (see devices.h). A LibTorch translation unit: CUDA properties come from
// LibTorch's CUDA context in CUDA builds; the CPU's name from engine/env's cpuinfo reader.
#include "train/devices.h"

#include <ATen/Version.h>
#include <dlfcn.h>
#include <fmt/format.h>
#include <link.h>
#include <torch/torch.h>
#include <unistd.h>

#include <thread>

#ifdef RLX_HAVE_TORCH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <ATen/detail/CUDAHooksInterface.h>
#endif

#include "env/env.h"
#include "env/framework.h"
#include "train/precisions.h"
#include "util/process_tuning.h"

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

namespace {

// A function of a library this process has already loaded (RTLD_NOLOAD: nothing new is loaded),
// found by the library's file name; nullptr when it is not loaded or lacks the symbol.
void* loaded_symbol(const char* library, const char* symbol) {
  void* lib = dlopen(library, RTLD_LAZY | RTLD_NOLOAD);
  if (lib == nullptr) return nullptr;
  void* f = dlsym(lib, symbol);
  dlclose(lib);
  return f;
}

// The file of the first loaded library whose name starts with `prefix` ("libgomp"): which OpenMP
// runtime really runs when several could (PyPI's wheel bundles its own libgomp beside the system's).
std::string loaded_library(const std::string& prefix) {
  struct Search { std::string prefix, path; } search{prefix, ""};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto* s = static_cast<Search*>(data);
        const std::string path = info->dlpi_name ? info->dlpi_name : "";
        const size_t slash = path.rfind('/');
        const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
        if (base.rfind(s->prefix, 0) == 0) {
          s->path = path;
          return 1;
        }
        return 0;
      },
      &search);
  return search.path;
}

void add_blas_runtime(nlohmann::json& fw) {
  nlohmann::json& blas = fw["blas"];
  if (!blas.is_object()) blas = nlohmann::json::object();
  // MKL is linked into libtorch_cpu.so in PyPI's x86-64 wheels.
  if (auto* version = reinterpret_cast<void (*)(char*, int)>(loaded_symbol("libtorch_cpu.so", "MKL_Get_Version_String"))) {
    char text[256] = {0};
    version(text, sizeof text - 1);
    blas["name"] = "MKL";
    if (const std::string v = env::mkl_version_from_text(text); !v.empty()) blas["version"] = v;
    auto* branch = reinterpret_cast<int (*)()>(loaded_symbol("libtorch_cpu.so", "mkl_serv_cbwr_get_auto_branch"));
    if (branch != nullptr) {
      if (const std::string isa = env::mkl_branch_isa(branch()); !isa.empty()) blas["isa"] = isa;
    }
    return;
  }
  // OpenBLAS (Debian's LibTorch through libblas.so.3; aarch64 wheels bundle their own): its one
  // reader, util::blas_info().
  const util::BlasInfo ob = util::blas_info();
  if (ob.name == "OpenBLAS") {
    blas["name"] = ob.name;
    if (!ob.core.empty()) blas["isa"] = ob.core;
    if (!ob.version.empty()) blas["version"] = ob.version;
  }
}

}  // namespace

nlohmann::json framework() {
  nlohmann::json fw = env::framework_from_config(at::show_config());
  if (!fw.contains("torch")) fw["torch"] = fmt::format("{}.{}.{}", TORCH_VERSION_MAJOR, TORCH_VERSION_MINOR, TORCH_VERSION_PATCH);
#ifdef RLX_HAVE_TORCH_CUDA
  const auto& hooks = at::detail::getCUDAHooks();
  if (const long rt = hooks.versionCUDART(); rt > 0) fw["cuda_runtime"] = fmt::format("{}.{}", rt / 1000, rt % 1000 / 10);
  if (const std::string c = cudnn_version(); !c.empty()) fw["cudnn"] = c;
  if (auto* nccl = reinterpret_cast<int (*)(int*)>(loaded_symbol("libnccl.so.2", "ncclGetVersion"))) {
    int v = 0;
    // NCCL 2.9+: major x 10000 + minor x 100 + patch.
    if (nccl(&v) == 0 && v > 0) fw["nccl"] = fmt::format("{}.{}.{}", v / 10000, v % 10000 / 100, v % 100);
  }
#endif
  add_blas_runtime(fw);
  if (const std::string gomp = loaded_library("libgomp"); !gomp.empty()) fw["openmp_library"] = gomp;
  return fw;
}

}  // namespace rlx::train
