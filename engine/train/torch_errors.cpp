// torch_errors.cpp: see torch_errors.h. The patterns are LibTorch's messages, 1.13's and 2.15's:
//   host: "[enforce fail at alloc_cpu.cpp:75] err == 0. DefaultCPUAllocator: can't allocate memory:
//          you tried to allocate 602112000000000000 bytes. Error code 12 (Cannot allocate memory)"
//          (2.15: the same from alloc_cpu.cpp:127)
//   CUDA: 1.13 "CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB total capacity; ...)",
//         2.x  "CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of ..."
//   BatchNorm: "Expected more than 1 value per channel when training, got input size [1, 1280]"
//              (Python's torch prints the size as torch.Size([1, 1280]))
#include "train/torch_errors.h"

#include <fmt/format.h>

#include <regex>

namespace rlx::train {

namespace {

std::string first_line(const std::string& s) {
  const auto nl = s.find('\n');
  return nl == std::string::npos ? s : s.substr(0, nl);
}

// "602112000000000000 bytes" -> "602112000000000000 bytes (602112000 GB)", decimal GB.
std::string bytes_text(const std::string& digits) {
  const double bytes = std::stod(digits);
  return bytes >= 1e9 ? fmt::format("{} bytes ({:.0f} GB)", digits, bytes / 1e9) : digits + " bytes";
}

std::string host_oom(const std::string& line) {
  static const std::regex asked("you tried to allocate ([0-9]+) bytes");
  std::smatch m;
  if (std::regex_search(line, m, asked))
    return "out of memory: the host could not allocate " + bytes_text(m[1]) + " (lower batch or input)";
  return "out of memory: the host could not allocate the memory asked for (lower batch or input)";
}

std::string cuda_oom(const std::string& line) {
  static const std::regex asked("Tried to allocate ([0-9.]+ [KMGT]?i?B)\\.? ?\\(?(GPU [0-9]+)");
  std::smatch m;
  if (std::regex_search(line, m, asked))
    return fmt::format("out of memory: the GPU could not allocate {} ({}) (lower batch or input)", m[1].str(),
                       m[2].str());
  return "out of memory: " + line + " (lower batch or input)";
}

// A BatchNorm layer met one value per channel: batch 1 and a 1x1 feature map (a small input at
// the end of a deep network), so there is no variance to normalize by.
std::string batch_norm_of_one(const std::string& line) {
  static const std::regex size("got input size [^\\[]*\\[([0-9, ]+)\\]");
  std::smatch m;
  const std::string shape = std::regex_search(line, m, size) ? " [" + m[1].str() + "]" : "";
  return "training with batch norm needs batch >= 2: a batch norm layer got one value per channel (input" +
         shape +
         "), which has no variance to normalize by; use batch >= 2, or a larger input so the feature map is "
         "more "
         "than 1x1";
}

}  // namespace

bool is_out_of_memory(const std::string& message) {
  return message.find("out of memory") != std::string::npos ||
         message.find("can't allocate memory") != std::string::npos ||
         message.find("Cannot allocate memory") != std::string::npos;
}

std::string describe_torch_error(const std::string& message) {
  const std::string line = first_line(message);
  if (line.find("CUDA out of memory") != std::string::npos) return cuda_oom(line);
  if (is_out_of_memory(line)) return host_oom(line);
  if (line.find("Expected more than 1 value per channel when training") != std::string::npos)
    return batch_norm_of_one(line);
  return "LibTorch error: " + line;
}

}  // namespace rlx::train
