// progress.h: a one-line progress bar on stderr (phase, iteration, images/s, ETA), redrawn in
// place with '\r' and erased at the end, so the terminal is left clean and nothing reaches a
// pipe or a log: the trainer enables it only when stderr is a terminal.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace rlx::train {

class ProgressBar {
 public:
  // enabled = false makes every call a no-op.
  ProgressBar(bool enabled, int64_t batch) : enabled_(enabled), batch_(batch) {}
  ~ProgressBar() { finish(); }
  // A new phase ("warmup", "measure") of `total` iterations.
  void phase(const std::string& name, int64_t total);
  // `done` iterations of the phase are finished.
  void update(int64_t done);
  void finish();

  static bool stderr_is_terminal();
  // The text of the line, for tests: "measure  12/30 [======    ]  95.2 img/s  ETA 3.1s".
  static std::string line(const std::string& phase, int64_t done, int64_t total, double images_per_s,
                          double eta_s);

 private:
  bool enabled_;
  int64_t batch_;
  std::string phase_;
  int64_t total_ = 0;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace rlx::train
