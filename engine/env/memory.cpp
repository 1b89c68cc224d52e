// memory.cpp: see memory.h.
#include "env/memory.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <fstream>
#include <sstream>

#include "env/env.h"

namespace rlx::env {
namespace {

std::optional<std::string> read(const std::string& path) {
  std::ifstream f(path);
  if (!f) return std::nullopt;
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// The leading decimal number of a file ("max" and missing files give nullopt).
std::optional<long long> number_in(const std::string& path) {
  auto text = read(path);
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

// The tightest limit - usage from the cgroup `path` up to the mount point. Limits of 2^60 bytes and
// more are v1's way of saying "none".
std::optional<Room> tightest(const std::string& mount, std::string path, const char* limit_file,
                             const char* usage_file) {
  std::optional<Room> best;
  while (true) {
    const std::string base = mount + (path == "/" ? "" : path);
    auto limit = number_in(base + "/" + limit_file), usage = number_in(base + "/" + usage_file);
    if (limit && usage && *limit < (1LL << 60)) {
      Room r{std::max(*limit - *usage, 0LL), *limit, *usage};
      if (!best || r.left < best->left) best = r;
    }
    if (path == "/" || path.empty()) break;
    const size_t slash = path.rfind('/');
    path = slash == 0 || slash == std::string::npos ? std::string("/") : path.substr(0, slash);
  }
  return best;
}

// The memory cgroup of this process in /proc/self/cgroup: v1's "N:...memory...:/path" line, or
// v2's "0::/path".
void cgroup_paths(const std::string& text, std::optional<std::string>* v1, std::optional<std::string>* v2) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const size_t a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    if (line.substr(0, a) == "0" && controllers.empty())
      *v2 = path;
    else if (controllers.find("memory") != std::string::npos)
      *v1 = path;
  }
}

}  // namespace

std::optional<long long> meminfo_bytes(const std::string& root, const std::string& key) {
  auto text = read(root + "/proc/meminfo");
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
  std::optional<std::string> v1, v2;
  cgroup_paths(read(root + "/proc/self/cgroup").value_or(""), &v1, &v2);
  std::optional<Room> room;
  if (v1) {
    room = tightest(root + "/sys/fs/cgroup/memory", *v1, "memory.limit_in_bytes", "memory.usage_in_bytes");
    if (room) m.cgroup = "v1";
  }
  for (const char* mount : {"/sys/fs/cgroup", "/sys/fs/cgroup/unified"}) {
    if (room || !v2) break;
    room = tightest(root + mount, *v2, "memory.max", "memory.current");
    if (room) m.cgroup = "v2";
  }
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
  auto text = read(path);
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
  std::optional<std::string> v1, v2;
  cgroup_paths(read(root + "/proc/self/cgroup").value_or(""), &v1, &v2);
  auto under = [](const std::string& path) { return path == "/" ? std::string() : path; };
  if (v1)
    if (auto n = oom_kill_line(root + "/sys/fs/cgroup/memory" + under(*v1) + "/memory.oom_control")) return n;
  if (v2)
    for (const char* mount : {"/sys/fs/cgroup", "/sys/fs/cgroup/unified"})
      if (auto n = oom_kill_line(root + mount + under(*v2) + "/memory.events")) return n;
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
