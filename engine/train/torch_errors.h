// torch_errors.h: a LibTorch error message as the one line rlx prints (no LibTorch here, so it is
// unit-tested without a model). Out of memory, on the host or a GPU, becomes the message
// docs/training.md promises: "out of memory: <what could not be allocated> (lower batch or input)",
// without LibTorch's "[enforce fail at alloc_cpu.cpp:75] err == 0." prefix.
#pragma once

#include <string>

namespace rlx::train {

// True when the message is an allocation failure (host allocator, CUDA caching allocator).
bool is_out_of_memory(const std::string& message);

// The first line of a LibTorch error (what_without_backtrace), classified: out of memory with the
// size asked for, a BatchNorm batch of one with its cause, otherwise "LibTorch error: <line>".
std::string describe_torch_error(const std::string& message);

}  // namespace rlx::train
