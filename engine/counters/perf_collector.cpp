// perf_collector.cpp: perf_event_open counters (see perf_collector.h). Each event is opened on
// its own (not as a group) so one the kernel or hypervisor refuses does not take the others
// down; a refused event is reported with its errno reason. Hardware events count user space only
// (exclude_kernel) so they work at the default perf_event_paranoid level of 2 without root;
// software events count kernel time too (a context switch or page fault happens in the kernel:
// user-only counting reads 0) and fall back to user space only when that is refused.
#include "counters/perf_collector.h"

#include <dirent.h>
#include <fmt/format.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <stdexcept>

#include "counters/metrics.h"

namespace rlx::counters {

namespace {

struct EventDef {
  const char* name;
  uint32_t type;
  uint64_t config;
  const char* unit;
};

const std::vector<EventDef>& event_defs() {
  static const std::vector<EventDef> d = {
      {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycle"},
      {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "inst"},
      {"cache_references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, "event"},
      {"cache_misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, "event"},
      {"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "inst"},
      {"branch_misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, "inst"},
      {"task_clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "second"},
      {"page_faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "event"},
      {"context_switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "event"},
      {"cpu_migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, "event"},
  };
  return d;
}

int paranoid_level() {
  std::ifstream f("/proc/sys/kernel/perf_event_paranoid");
  int v = 2;
  if (f >> v) return v;
  return 2;
}

std::string errno_reason(int err) {
  switch (err) {
    case ENOENT:
    case EOPNOTSUPP:
    case ENODEV:
      return fmt::format("not supported by this CPU, kernel or hypervisor (perf_event_open: {})", std::strerror(err));
    case EACCES:
    case EPERM:
      return fmt::format("permission denied (perf_event_open: {}; kernel.perf_event_paranoid = {}: run as root or "
                         "lower it with sysctl kernel.perf_event_paranoid=1)",
                         std::strerror(err), paranoid_level());
    case ENOSYS:
      return "perf_event_open is not available in this kernel (ENOSYS)";
    default:
      return fmt::format("perf_event_open failed: {}", std::strerror(err));
  }
}

int open_event_mode(const EventDef& e, pid_t tid, bool inherit, bool exclude_kernel) {
  perf_event_attr a;
  std::memset(&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = e.type;
  a.config = e.config;
  a.disabled = 1;
  a.inherit = inherit ? 1 : 0;
  a.exclude_kernel = exclude_kernel ? 1 : 0;
  a.exclude_hv = 1;
  a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
  return static_cast<int>(syscall(SYS_perf_event_open, &a, tid, -1, -1, PERF_FLAG_FD_CLOEXEC));
}

int open_event(const EventDef& e, pid_t tid, bool inherit) {
  if (e.type == PERF_TYPE_SOFTWARE) {
    int fd = open_event_mode(e, tid, inherit, false);
    if (fd >= 0 || (errno != EACCES && errno != EPERM)) return fd;
  }
  return open_event_mode(e, tid, inherit, true);
}

std::vector<pid_t> process_threads() {
  std::vector<pid_t> tids;
  if (DIR* d = opendir("/proc/self/task")) {
    while (dirent* ent = readdir(d)) {
      if (ent->d_name[0] == '.') continue;
      tids.push_back(static_cast<pid_t>(std::atoi(ent->d_name)));
    }
    closedir(d);
  }
  if (tids.empty()) tids.push_back(static_cast<pid_t>(syscall(SYS_gettid)));
  return tids;
}

class PerfCollector : public Collector {
 public:
  explicit PerfCollector(std::vector<const EventDef*> events) : events_(std::move(events)) {}
  ~PerfCollector() override { close_all(); }

  // perf_event needs one pass; three iterations make the per-iteration values an average, so a
  // page-fault burst or a migration in one iteration weighs a third.
  int iterations_wanted() const override { return 3; }

  void on_measured_begin(int measured_iters) override {
    close_all();
    iters_ = measured_iters;
    fds_.assign(events_.size(), {});
    unsupported_.clear();
    auto tids = process_threads();
    for (size_t i = 0; i < events_.size(); ++i) {
      for (pid_t tid : tids) {
        int fd = open_event(*events_[i], tid, true);
        if (fd < 0) {
          // A thread that exited between listing and opening is not a failure of the event.
          if (errno == ESRCH) continue;
          unsupported_[events_[i]->name] = errno_reason(errno);
          for (int f : fds_[i]) close(f);
          fds_[i].clear();
          break;
        }
        fds_[i].push_back(fd);
      }
    }
    started_ = std::chrono::steady_clock::now();
    for (auto& v : fds_) for (int fd : v) ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
    running_ = true;
  }

  void on_measured_end() override {
    if (!running_) return;
    for (auto& v : fds_) for (int fd : v) ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
    wall_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    running_ = false;
    values_.clear();
    multiplexed_.clear();
    for (size_t i = 0; i < events_.size(); ++i) {
      if (fds_[i].empty()) continue;
      double sum = 0;
      bool scaled = false, ok = true;
      for (int fd : fds_[i]) {
        uint64_t buf[3] = {0, 0, 0};  // value, time enabled, time running
        if (read(fd, buf, sizeof buf) != static_cast<ssize_t>(sizeof buf)) {
          unsupported_[events_[i]->name] = fmt::format("reading the counter failed: {}", std::strerror(errno));
          ok = false;
          break;
        }
        double v = static_cast<double>(buf[0]);
        // The kernel time-shares counters when there are more events than registers: scale by
        // enabled/running as perf stat does, and say so.
        if (buf[2] > 0 && buf[2] < buf[1]) {
          v *= static_cast<double>(buf[1]) / static_cast<double>(buf[2]);
          scaled = true;
        } else if (buf[2] == 0 && buf[1] > 0) {
          v = 0;  // never scheduled on a counter
        }
        sum += v;
      }
      if (!ok) continue;
      if (std::strcmp(events_[i]->name, "task_clock") == 0) sum *= 1e-9;  // the kernel counts ns
      values_[events_[i]->name] = sum;
      if (scaled) multiplexed_.push_back(events_[i]->name);
    }
    close_all();
    measured_ = true;
  }

  nlohmann::json result() const override {
    nlohmann::json r;
    r["source"] = "perf_event";
    r["device"] = "cpu";
    bool any = !values_.empty();
    r["available"] = measured_ ? any : true;
    if (measured_ && !any) r["reason"] = "no perf_event counter could be opened (see unsupported)";
    if (!measured_) r["note"] = "no measured section seen yet";
    r["iterations"] = iters_;
    r["values"] = values_.empty() ? nlohmann::json::object() : nlohmann::json(values_);
    nlohmann::json units = nlohmann::json::object();
    for (const auto* e : events_) {
      if (values_.count(e->name)) units[e->name] = e->unit;
    }
    r["units"] = units;
    r["unsupported"] = unsupported_.empty() ? nlohmann::json::object() : nlohmann::json(unsupported_);
    if (!multiplexed_.empty()) r["multiplexed"] = multiplexed_;
    nlohmann::json d = derive(values_);
    d.erase("missing");
    d["iterations"] = iters_;
    if (measured_) d["seconds"] = wall_s_;
    if (iters_ > 0) {
      nlohmann::json per = nlohmann::json::object();
      for (const auto& [k, v] : values_) per[k] = v / iters_;
      d["per_iteration"] = per;
    }
    r["derived"] = d;
    return r;
  }

 private:
  void close_all() {
    for (auto& v : fds_) for (int fd : v) close(fd);
    for (auto& v : fds_) v.clear();
  }

  std::vector<const EventDef*> events_;
  std::vector<std::vector<int>> fds_;
  std::map<std::string, double> values_;
  std::map<std::string, std::string> unsupported_;
  std::vector<std::string> multiplexed_;
  std::chrono::steady_clock::time_point started_;
  double wall_s_ = 0;
  int iters_ = 0;
  bool running_ = false, measured_ = false;
};

}  // namespace

std::vector<std::string> perf_event_names() {
  std::vector<std::string> n;
  for (const auto& e : event_defs()) n.push_back(e.name);
  return n;
}

std::unique_ptr<Collector> make_perf_collector(const std::vector<std::string>& events) {
  std::vector<const EventDef*> chosen;
  for (const auto& name : events) {
    const EventDef* found = nullptr;
    for (const auto& e : event_defs()) {
      if (name == e.name) found = &e;
    }
    if (!found) {
      throw std::invalid_argument(fmt::format("unknown cpu counter '{}' (valid: {})", name,
                                              fmt::join(perf_event_names(), ", ")));
    }
    chosen.push_back(found);
  }
  if (chosen.empty()) {
    for (const auto& e : event_defs()) chosen.push_back(&e);
  }
  return std::make_unique<PerfCollector>(std::move(chosen));
}

std::vector<std::pair<std::string, std::string>> probe_perf_events() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& e : event_defs()) {
    int fd = open_event(e, 0, false);
    if (fd >= 0) {
      close(fd);
      out.emplace_back(e.name, "");
    } else {
      out.emplace_back(e.name, errno_reason(errno));
    }
  }
  return out;
}

}  // namespace rlx::counters
