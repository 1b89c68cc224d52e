// terminal.cpp: see terminal.h.
#include "terminal.h"

#include <poll.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <chrono>

namespace rlx::host {

std::optional<int> terminal_width() {
  if (!isatty(STDOUT_FILENO)) return std::nullopt;
  winsize ws{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0) return std::nullopt;
  return static_cast<int>(ws.ws_col);
}

std::optional<std::string> terminal_query(const std::string& query, char end, int timeout_ms) {
  if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) return std::nullopt;
  termios saved{};
  if (tcgetattr(STDIN_FILENO, &saved) != 0) return std::nullopt;
  termios raw = saved;
  raw.c_lflag &= ~static_cast<tcflag_t>(ICANON | ECHO);
  raw.c_cc[VMIN] = 0;
  raw.c_cc[VTIME] = 0;
  if (tcsetattr(STDIN_FILENO, TCSANOW, &raw) != 0) return std::nullopt;
  std::optional<std::string> reply;
  if (write(STDOUT_FILENO, query.data(), query.size()) == static_cast<ssize_t>(query.size())) {
    std::string got;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())
              .count();
      pollfd p{STDIN_FILENO, POLLIN, 0};
      if (left <= 0 || poll(&p, 1, static_cast<int>(left)) <= 0) break;
      char c = 0;
      if (read(STDIN_FILENO, &c, 1) != 1) break;
      got += c;
      if (c == end) {
        reply = got;
        break;
      }
    }
  }
  tcsetattr(STDIN_FILENO, TCSANOW, &saved);
  return reply;
}

}  // namespace rlx::host
