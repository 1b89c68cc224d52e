// precisions.cpp: see precisions.h. A LibTorch translation unit: the CPU's bf16 probe runs
// LibTorch's own kernels, and a CUDA build reads each GPU's compute capability.
#include "train/precisions.h"

#include <fmt/format.h>
#include <torch/torch.h>
#include <torch/version.h>

#ifdef RLX_HAVE_TORCH_CUDA
#include <ATen/cuda/CUDAContext.h>
#endif

#include "models/complexity.h"
#include "platform/platform.h"

namespace rlx::train {
namespace {

std::string first_line(const std::string& s) {
  const auto nl = s.find('\n');
  return nl == std::string::npos ? s : s.substr(0, nl);
}

// What bf16 training on the CPU runs in bf16 (autocast casts convolutions and linear layers),
// at the unit tests' tiny model's shape: batch 2, 3x16x16 images, a 3x3 convolution to 4
// channels, a linear layer to 3 classes; forward and backward. The error's first line, "" when
// it ran.
std::string run_cpu_bf16_probe() {
  try {
    torch::AutoGradMode grad(true);
    torch::manual_seed(0);
    const auto bf16 = torch::TensorOptions().dtype(torch::kBFloat16);
    const torch::Tensor x = torch::randn({2, 3, 16, 16}, bf16);
    const torch::Tensor w = torch::randn({4, 3, 3, 3}, bf16).requires_grad_(true);
    const torch::Tensor fc = torch::randn({3, 4}, bf16).requires_grad_(true);
    const torch::Tensor h = torch::relu(torch::conv2d(x, w, {}, 1, 1)).mean({2, 3});
    torch::linear(h, fc).sum().backward();
    return "";
  } catch (const c10::Error& e) {
    return first_line(e.what_without_backtrace());
  } catch (const std::exception& e) {
    return first_line(e.what());
  }
}

// The probe runs once per process (its answer cannot change while the process lives).
const std::string& cpu_bf16_probe_error() {
  static const std::string error = run_cpu_bf16_probe();
  return error;
}

std::string torch_version() {
  return fmt::format("{}.{}.{}", TORCH_VERSION_MAJOR, TORCH_VERSION_MINOR, TORCH_VERSION_PATCH);
}

std::string cpu_refusal(const std::string& precision) {
  if (precision == "bf16") {
    const platform::CpuFeatures& f = platform::cpu_features();
    return cpu_bf16_refusal(cpu_bf16_probe_error(), torch_version(), f.arch == "arm64" && f.bf16);
  }
  if (precision == "amp")
    return fmt::format(
        "precision 'amp' (fp16 autocast with gradient scaling) needs a CUDA device, and the run is on 'cpu'; "
        "use precision=\"{}\" on the CPU",
        cpu_refusal("bf16").empty() ? "bf16" : "fp32");
  return "";
}

std::string cuda_refusal(const std::string& precision, const std::string& device_id) {
#ifdef RLX_HAVE_TORCH_CUDA
  if (precision != "bf16") return "";
  const auto index = static_cast<c10::DeviceIndex>(std::stoi(device_id.substr(5)));
  const auto* p = at::cuda::getDeviceProperties(index);
  if (p->major < 8)
    return fmt::format("precision 'bf16' needs a GPU of compute capability 8.0 or newer; '{}' is {}.{}",
                       device_id, p->major, p->minor);
#else
  (void)precision;
  (void)device_id;
#endif
  return "";
}

}  // namespace

std::string cpu_bf16_refusal(const std::string& probe_error, const std::string& torch_version,
                             bool arm64_bf16) {
  if (probe_error.empty()) return "";
  if (arm64_bf16)
    return fmt::format(
        "precision 'bf16' cannot train on this CPU with LibTorch {}: on an arm64 CPU with the bf16 feature "
        "it "
        "hands bf16 convolutions to oneDNN, which fails (\"{}\"); use precision=\"fp32\" on this CPU",
        torch_version, probe_error);
  return fmt::format(
      "precision 'bf16' cannot train on this CPU with LibTorch {}: a bf16 convolution fails (\"{}\"); use "
      "precision=\"fp32\" on this CPU",
      torch_version, probe_error);
}

std::string precision_refusal(const std::string& precision, const std::string& device_id) {
  return device_id.rfind("cuda", 0) == 0 ? cuda_refusal(precision, device_id) : cpu_refusal(precision);
}

nlohmann::json refused_precisions(const std::string& device_id) {
  nlohmann::json out = nlohmann::json::object();
  for (const std::string& p : models::precision_names()) {  // the vocabulary's one owner
    std::string why = precision_refusal(p, device_id);
    if (!why.empty()) out[p] = std::move(why);
  }
  return out;
}

}  // namespace rlx::train
