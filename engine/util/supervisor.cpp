// supervisor.cpp: the waiting parent of supervisor.h. It runs no Lua, opens nothing before the
// child ends and allocates only in its own thread outside the signal handlers; the handlers only
// call kill(2), which is async-signal-safe.
#include "util/supervisor.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "util/interrupt.h"

namespace rlx::util {
namespace {

int g_write_fd = -1;
std::atomic<pid_t> g_child{0};
static_assert(std::atomic<pid_t>::is_always_lock_free);

const int kForwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};

// Forwards a signal another process sent to the parent alone. si_code > 0 means the kernel sent
// it (the terminal's Ctrl-C or Ctrl-\ to the foreground process group): the child has its own.
void forward(int sig, siginfo_t* info, void*) {
  const pid_t child = g_child.load();
  if (child <= 0 || info == nullptr || info->si_code > 0 || info->si_pid == child) return;
  kill(child, sig);
}

void install_forwarding() {
  for (int sig : kForwarded) {
    struct sigaction old {};
    // nohup: an ignored SIGHUP (or SIGQUIT) stays ignored, in the child too.
    if ((sig == SIGHUP || sig == SIGQUIT) && sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN)
      continue;
    struct sigaction sa {};
    sa.sa_sigaction = forward;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, nullptr);
  }
  signal(SIGPIPE, SIG_IGN);  // a closed stderr must not end the parent before it records the death
}

// Reads the child's messages until it ends (polling, so a grandchild that kept the pipe open
// cannot keep the parent waiting after the child is gone). Returns the wait status.
int wait_for_child(pid_t child, int fd, std::string& messages) {
  char buf[4096];
  bool open = true;
  for (;;) {
    if (open) {
      struct pollfd p {
        fd, POLLIN, 0
      };
      const int ready = poll(&p, 1, 1000);
      if (ready > 0) {
        const ssize_t n = read(fd, buf, sizeof buf);
        if (n > 0) messages.append(buf, static_cast<size_t>(n));
        if (n == 0) open = false;
      }
    }
    int status = 0;
    const pid_t r = waitpid(child, &status, open ? WNOHANG : 0);
    if (r == child) {
      // What the child wrote just before it ended is still in the pipe.
      fcntl(fd, F_SETFL, O_NONBLOCK);
      ssize_t n;
      while (open && (n = read(fd, buf, sizeof buf)) > 0) messages.append(buf, static_cast<size_t>(n));
      return status;
    }
    if (r < 0 && errno != EINTR) return 0;
  }
}

[[noreturn]] void exit_as(int status) {
  std::fflush(nullptr);
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    struct rlimit none {
      0, 0
    };
    setrlimit(RLIMIT_CORE, &none);  // the child's core (if any) is the one that matters
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, nullptr);
    raise(sig);
    std::_Exit(128 + sig);  // a signal whose default action is not to end the process
  }
  std::_Exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

}  // namespace

std::string signal_name(int sig) {
  switch (sig) {
    case SIGHUP:
      return "SIGHUP";
    case SIGINT:
      return "SIGINT";
    case SIGQUIT:
      return "SIGQUIT";
    case SIGILL:
      return "SIGILL";
    case SIGTRAP:
      return "SIGTRAP";
    case SIGABRT:
      return "SIGABRT";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGKILL:
      return "SIGKILL";
    case SIGUSR1:
      return "SIGUSR1";
    case SIGSEGV:
      return "SIGSEGV";
    case SIGUSR2:
      return "SIGUSR2";
    case SIGPIPE:
      return "SIGPIPE";
    case SIGALRM:
      return "SIGALRM";
    case SIGTERM:
      return "SIGTERM";
    case SIGXCPU:
      return "SIGXCPU";
    case SIGXFSZ:
      return "SIGXFSZ";
    case SIGSYS:
      return "SIGSYS";
    default:
      return "signal " + std::to_string(sig);
  }
}

bool supervised() {
  return g_write_fd >= 0;
}

void tell_supervisor(const std::string& line) {
  // One write of at most PIPE_BUF bytes is atomic: lines never interleave or arrive cut.
  if (g_write_fd < 0 || line.size() + 1 > PIPE_BUF || line.find('\n') != std::string::npos) return;
  const std::string text = line + "\n";
  ssize_t n;
  do n = write(g_write_fd, text.data(), text.size());
  while (n < 0 && errno == EINTR);
}

namespace {

// The threads of this process (/proc/self/task), 0 when unknown.
int thread_count() {
  DIR* d = opendir("/proc/self/task");
  if (d == nullptr) return 0;
  int n = 0;
  while (const dirent* e = readdir(d))
    if (e->d_name[0] != '.') ++n;
  closedir(d);
  return n;
}

}  // namespace

void supervise(const std::function<void(const ChildEnd&)>& on_end) {
  const char* opt = std::getenv("RLX_SUPERVISE");
  if (opt != nullptr && std::strcmp(opt, "0") == 0) return;
  // A fork copies only this thread: a library that already started threads (libgomp's team) would
  // be left in the child with state about threads it does not have. Run unsupervised instead.
  if (thread_count() != 1) return;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return;
  const pid_t parent = getpid();
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    return;
  }
  if (child == 0) {
    close(fds[0]);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) raise(SIGKILL);  // the parent died before prctl took effect
    fcntl(fds[1], F_SETFL, O_NONBLOCK);
    g_write_fd = fds[1];
    set_signal_forwarder(parent);
    return;
  }
  close(fds[1]);
  g_child.store(child);
  install_forwarding();
  std::string messages;
  const int status = wait_for_child(child, fds[0], messages);
  close(fds[0]);
  ChildEnd end;
  end.pid = child;
  end.exited = WIFEXITED(status);
  end.exit_code = end.exited ? WEXITSTATUS(status) : 0;
  end.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  end.core_dumped = WIFSIGNALED(status) && WCOREDUMP(status);
  size_t start = 0;
  for (size_t nl; (nl = messages.find('\n', start)) != std::string::npos; start = nl + 1)
    end.messages.push_back(messages.substr(start, nl - start));
  try {
    on_end(end);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rlx: recording how process %d ended failed: %s\n", static_cast<int>(child),
                 e.what());
  }
  exit_as(status);
}

}  // namespace rlx::util
