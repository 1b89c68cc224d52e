// memory.cpp: see memory.h.
#include "env/memory.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>

#include "env/env.h"
#include "util/cgroup.h"
#include "util/text_file.h"

namespace rlx::env {
namespace {

// The leading decimal number of a file ("max" and missing files give nullopt).
std::optional<long long> number_in(const std::string& path) {
  auto text = util::read_text_file(path);
  if (!text) return std::nullopt;
  size_t i = text->find_first_not_of(" \t\n");
  if (i == std::string::npos || !std::isdigit(static_cast<unsigned char>((*text)[i]))) return std::nullopt;
  try {
    return std::stoll(text->substr(i));
  } catch (const std::exception&) {
    return std::nullopt;  // out of range: no limit worth the name
  }
}

struct Room {
  long long left = 0, limit = 0, usage = 0;
};

// The tightest limit - usage over the process's group and those above it in the hierarchies of
// `root`'s /proc/self/cgroup (util/cgroup.h), v1's memory controller first. Limits of 2^60 bytes
// and more are v1's way of saying "none". Sets `version` to "v1" or "v2" where one limits.
std::optional<Room> tightest(const std::string& root, std::string* version) {
  std::optional<Room> best;
  for (const auto& h :
       util::cgroup_hierarchies(util::read_text_file(root + "/proc/self/cgroup").value_or(""),
                                util::read_text_file(root + "/proc/self/mountinfo").value_or(""), "memory")) {
    if (best) break;  // v1's limit when it has one, as before v2's
    const char* limit_file = h.v2 ? "memory.max" : "memory.limit_in_bytes";
    const char* usage_file = h.v2 ? "memory.current" : "memory.usage_in_bytes";
    for (const std::string& dir : util::cgroup_dirs_up(h)) {
      auto limit = number_in(root + dir + "/" + limit_file), usage = number_in(root + dir + "/" + usage_file);
      if (limit && usage && *limit < (1LL << 60)) {
        Room r{std::max(*limit - *usage, 0LL), *limit, *usage};
        if (!best || r.left < best->left) best = r;
      }
    }
    if (best) *version = h.v2 ? "v2" : "v1";
  }
  return best;
}

}  // namespace

std::optional<long long> meminfo_bytes(const std::string& root, const std::string& key) {
  auto text = util::read_text_file(root + "/proc/meminfo");
  if (!text) return std::nullopt;
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line)) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos || line.substr(0, colon) != key) continue;
    const long long b = parse_size_bytes(line.substr(colon + 1));
    if (b >= 0) return b;
  }
  return std::nullopt;
}

MemoryRoom memory_room(const std::string& root) {
  MemoryRoom m;
  m.mem_available_bytes = meminfo_bytes(root, "MemAvailable");
  const std::optional<Room> room = tightest(root, &m.cgroup);
  m.available_bytes = m.mem_available_bytes;
  if (room) {
    m.cgroup_limit_bytes = room->limit;
    m.cgroup_usage_bytes = room->usage;
    if (!m.available_bytes || room->left < *m.available_bytes) m.available_bytes = room->left;
  }
  return m;
}

namespace {
// The number after "oom_kill " in a memory.events or memory.oom_control file.
std::optional<long long> oom_kill_line(const std::string& path) {
  auto text = util::read_text_file(path);
  if (!text) return std::nullopt;
  std::istringstream in(*text);
  std::string key;
  long long n = 0;
  while (in >> key >> n)
    if (key == "oom_kill") return n;
  return std::nullopt;
}
}  // namespace

std::optional<long long> cgroup_oom_kills(const std::string& root) {
  for (const auto& h :
       util::cgroup_hierarchies(util::read_text_file(root + "/proc/self/cgroup").value_or(""),
                                util::read_text_file(root + "/proc/self/mountinfo").value_or(""), "memory")) {
    const std::string own = util::cgroup_dirs_up(h).front();
    if (auto n = oom_kill_line(root + own + (h.v2 ? "/memory.events" : "/memory.oom_control"))) return n;
  }
  return std::nullopt;
}

std::optional<bool> kernel_log_oom_killed(long long pid, const std::string& kmsg_path) {
  const int fd = ::open(kmsg_path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  const std::string needle = "Killed process " + std::to_string(pid) + " (";
  std::string log;
  char buf[8192];
  // /dev/kmsg gives one record per read and EAGAIN at the end (EPIPE when a record was
  // overwritten meanwhile: read on); a regular file (the tests') gives chunks and 0 at the end.
  while (log.size() < (16u << 20)) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      log.append(buf, static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && (errno == EINTR || errno == EPIPE)) continue;
    break;
  }
  ::close(fd);
  return log.find(needle) != std::string::npos;
}

nlohmann::json to_json(const MemoryRoom& m) {
  nlohmann::json j = nlohmann::json::object();
  if (m.available_bytes) j["available_bytes"] = *m.available_bytes;
  if (m.mem_available_bytes) j["mem_available_bytes"] = *m.mem_available_bytes;
  if (!m.cgroup.empty()) j["cgroup"] = m.cgroup;
  if (m.cgroup_limit_bytes) j["cgroup_limit_bytes"] = *m.cgroup_limit_bytes;
  if (m.cgroup_usage_bytes) j["cgroup_usage_bytes"] = *m.cgroup_usage_bytes;
  return j;
}

}  // namespace rlx::env
