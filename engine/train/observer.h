// observer.h: hooks the trainer calls around the counted iterations, so counter backends
// (engine/counters) can run inside the training loop without the trainer knowing them.
// The counted iterations run after the last timed one (the "measured section" of a collector is
// the counted section): counters never slow a timed iteration. on_timed_iteration only reports
// that a timed iteration finished (tests check the order with it); it must not do work.
// All calls happen on the main thread. begin/end of an iteration are called after the device is
// synchronized, so work of neighbouring iterations is not attributed to this one.
#pragma once

#include <algorithm>
#include <vector>

namespace rlx::train {

class IterationObserver {
 public:
  virtual ~IterationObserver() = default;
  // Counted iterations this observer needs for one complete collection (e.g. CUPTI passes).
  virtual int iterations_wanted() const { return 1; }
  virtual void on_timed_iteration(int index) { (void)index; }  // 0-based timed iteration, finished
  virtual void on_measured_begin(int measured_iters) { (void)measured_iters; }
  virtual void on_iteration_begin(int index) { (void)index; }  // 0-based measured iteration
  virtual void on_iteration_end(int index) { (void)index; }
  virtual void on_measured_end() {}
};

// Several observers seen as one: begins in order, ends in reverse order, so the first one
// brackets the others (a profiler range around a collector). Does not own them.
class ObserverList : public IterationObserver {
 public:
  void add(IterationObserver* o) {
    if (o) list_.push_back(o);
  }
  bool empty() const { return list_.empty(); }
  int iterations_wanted() const override {
    int n = 0;
    for (auto* o : list_) n = std::max(n, o->iterations_wanted());
    return n;
  }
  void on_timed_iteration(int i) override {
    for (auto* o : list_) o->on_timed_iteration(i);
  }
  void on_measured_begin(int n) override {
    for (auto* o : list_) o->on_measured_begin(n);
  }
  void on_iteration_begin(int i) override {
    for (auto* o : list_) o->on_iteration_begin(i);
  }
  void on_iteration_end(int i) override {
    for (auto it = list_.rbegin(); it != list_.rend(); ++it) (*it)->on_iteration_end(i);
  }
  void on_measured_end() override {
    for (auto it = list_.rbegin(); it != list_.rend(); ++it) (*it)->on_measured_end();
  }

 private:
  std::vector<IterationObserver*> list_;
};

}  // namespace rlx::train
