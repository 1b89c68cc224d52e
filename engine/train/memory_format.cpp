// memory_format.cpp: choosing and applying a run's memory layout (memory_format.h).
#include "train/memory_format.h"

namespace rlx::train {

std::string resolve_memory_format(const std::string& requested, torch::nn::Module& net) {
  if (!requested.empty()) return requested;
  for (const auto& p : net.parameters())
    if (p.dim() == 4) return "channels_last";
  return "contiguous";
}

torch::MemoryFormat apply_memory_format(const std::string& format, torch::nn::Module& net) {
  const auto memory_format =
      format == "channels_last" ? torch::MemoryFormat::ChannelsLast : torch::MemoryFormat::Contiguous;
  torch::NoGradGuard no_grad;
  for (auto& p : net.parameters())
    if (p.dim() == 4) p.set_data(p.contiguous(memory_format));
  for (auto& b : net.buffers())
    if (b.dim() == 4) b.set_data(b.contiguous(memory_format));
  return memory_format;
}

}  // namespace rlx::train
