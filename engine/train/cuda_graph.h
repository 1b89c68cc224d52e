// cuda_graph.h: one training step captured as a CUDA graph and replayed (TrainConfig::cuda_graphs).
// Everything here needs a CUDA LibTorch (RLX_HAVE_TORCH_CUDA); included only by trainer.cpp.
#pragma once

#ifdef RLX_HAVE_TORCH_CUDA
#include <ATen/autocast_mode.h>
#include <ATen/cuda/CUDAGraph.h>
#include <torch/cuda.h>

#include <functional>

namespace rlx::train {

// What Python's `with torch.cuda.graph(g):` does around a capture, in C++: wait for the device,
// record the kernels `step` launches (nothing runs: the capture only records them, and the memory
// the step allocates comes from a pool private to the graph, which keeps it, so the tensors the
// step makes (activations, gradients, the loss) sit at the same addresses on every replay), then
// instantiate the graph. The caller's current stream must not be the default stream (trainer.cpp
// runs a graphed run on a side stream from its start, warm-up included, as PyTorch's recipe warms
// up on the capturing stream). Autocast's cast cache is off while capturing, as PyTorch's CUDA
// graphs notes advise (autocast(cache_enabled=False)): a weight cast cached before the capture
// would be read inside it without its cast kernel being recorded, so every replay would use the
// stale copy. rlx's AutocastScope empties the cache after every step already; this is the second
// guard, and it costs nothing here (no model casts one weight twice in a step).
class CapturedStep {
 public:
  void capture(int device_index, const std::function<void()>& step) {
    torch::cuda::synchronize(device_index);
    const bool cache = at::autocast::is_autocast_cache_enabled();
    at::autocast::set_autocast_cache_enabled(false);
    graph_.capture_begin();
    try {
      step();
    } catch (...) {
      at::autocast::set_autocast_cache_enabled(cache);
      end_failed_capture();
      throw;
    }
    at::autocast::set_autocast_cache_enabled(cache);
    graph_.capture_end();
    torch::cuda::synchronize(device_index);
  }
  void replay() { graph_.replay(); }

 private:
  // A step that failed while capturing (an op that syncs with the host, say) leaves the stream in
  // capture mode: ending the capture gives the stream and the allocator's pool back. Best effort:
  // the run fails with the step's own error either way.
  void end_failed_capture() noexcept {
    try {
      graph_.capture_end();
    } catch (...) {
    }
  }

  at::cuda::CUDAGraph graph_;
};

}  // namespace rlx::train
#endif
