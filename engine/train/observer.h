// observer.h: hooks the trainer calls around the measured iterations, so counter backends
// (engine/counters) can run inside the training loop without the trainer knowing them.
// All calls happen on the main thread. begin/end of an iteration are called after the device is
// synchronized, so work of neighbouring iterations is not attributed to this one.
#pragma once

namespace rlx::train {

class IterationObserver {
 public:
  virtual ~IterationObserver() = default;
  virtual void on_measured_begin(int measured_iters) { (void)measured_iters; }
  virtual void on_iteration_begin(int index) { (void)index; }  // 0-based measured iteration
  virtual void on_iteration_end(int index) { (void)index; }
  virtual void on_measured_end() {}
};

}  // namespace rlx::train
