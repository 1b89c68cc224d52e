// progress.cpp: see progress.h.
#include "train/progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <string_view>

#include <cstdio>

namespace rlx::train {

// The progress line redraws itself with '\r' and ESC[K: only a terminal that understands cursor
// escapes gets it; TERM=dumb or unset (Emacs shells, CI logs) gets none (issue 56 item 7), whoever
// calls rlx.train.
bool ProgressBar::stderr_is_terminal() {
  if (isatty(STDERR_FILENO) != 1) return false;
  const char* term = std::getenv("TERM");
  return term != nullptr && *term != '\0' && std::string_view(term) != "dumb";
}

std::string ProgressBar::line(const std::string& phase, int64_t done, int64_t total, double images_per_s,
                              double eta_s) {
  constexpr int kWidth = 20;
  const int filled = total > 0 ? static_cast<int>(kWidth * done / total) : 0;
  std::string bar(static_cast<size_t>(filled), '=');
  bar.resize(kWidth, ' ');
  return fmt::format("{:<7} {:>5}/{:<5} [{}] {:8.1f} img/s  ETA {:.1f}s", phase, done, total, bar,
                     images_per_s, eta_s);
}

void ProgressBar::phase(const std::string& name, int64_t total) {
  phase_ = name;
  total_ = total;
  start_ = std::chrono::steady_clock::now();
  update(0);
}

void ProgressBar::update(int64_t done) {
  if (!enabled_) return;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double ips = done > 0 && elapsed > 0 ? static_cast<double>(done * batch_) / elapsed : 0;
  const double eta = done > 0 ? elapsed / static_cast<double>(done) * static_cast<double>(total_ - done) : 0;
  const std::string text = line(phase_, done, total_, ips, eta);
  std::fprintf(stderr, "\r%s\033[K", text.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::finish() {
  if (!enabled_ || !drawn_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace rlx::train
