// cpu_quota.cpp: see cpu_quota.h.
#include "util/cpu_quota.h"

#include <charconv>
#include <fstream>
#include <sstream>
#include <vector>

namespace rlx::util {

namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

std::optional<long long> integer(std::string_view s) {
  s = trimmed(s);
  long long v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  for (size_t at = 0;;) {
    const size_t next = s.find(sep, at);
    out.push_back(s.substr(at, next == std::string_view::npos ? std::string_view::npos : next - at));
    if (next == std::string_view::npos) return out;
    at = next + 1;
  }
}

bool has_token(std::string_view list, std::string_view token) {
  for (auto t : split(list, ',')) if (t == token) return true;
  return false;
}

// A cgroup hierarchy as mounted: where (mount point), which group is its root, and the group this
// process is in.
struct Hierarchy {
  bool v2 = false;
  std::string mount_point, mount_root, group;
};

// The cpu controller's v1 mount and the v2 mount from mountinfo ("ID PARENT MAJ:MIN ROOT POINT
// OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER_OPTIONS"), with the groups of /proc/self/cgroup
// ("ID:CONTROLLERS:PATH"; v2's line is "0::PATH").
std::vector<Hierarchy> hierarchies(const std::string& proc_self_cgroup, const std::string& mountinfo) {
  std::string v1_group, v2_group;
  bool has_v1 = false, has_v2 = false;
  std::istringstream groups(proc_self_cgroup);
  for (std::string line; std::getline(groups, line);) {
    const auto parts = split(line, ':');
    if (parts.size() < 3) continue;
    const std::string path(line.substr(parts[0].size() + parts[1].size() + 2));
    if (parts[0] == "0" && parts[1].empty()) { has_v2 = true; v2_group = path; }
    else if (has_token(parts[1], "cpu")) { has_v1 = true; v1_group = path; }
  }
  std::vector<Hierarchy> out;
  std::istringstream mounts(mountinfo);
  for (std::string line; std::getline(mounts, line);) {
    const size_t dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    std::istringstream head(line.substr(0, dash)), tail(line.substr(dash + 3));
    std::string id, parent, dev, root, point, type, source, super;
    if (!(head >> id >> parent >> dev >> root >> point) || !(tail >> type >> source >> super)) continue;
    if (type == "cgroup2" && has_v2) out.push_back({true, point, root, v2_group});
    if (type == "cgroup" && has_v1 && has_token(super, "cpu")) out.push_back({false, point, root, v1_group});
  }
  return out;
}

// The directory of the process's group under the mount: its path less the mount's root (without
// a cgroup namespace a container's mount root is its own group, /docker/ID, and so is its path).
std::string group_dir(const Hierarchy& h) {
  std::string_view rel = h.group;
  if (h.mount_root != "/") rel = rel.rfind(h.mount_root, 0) == 0 ? rel.substr(h.mount_root.size()) : std::string_view{};
  while (!rel.empty() && rel.back() == '/') rel.remove_suffix(1);
  std::string dir = h.mount_point;
  dir.append(rel);
  return dir;
}

}  // namespace

std::optional<double> parse_cpu_max(std::string_view text) {
  const auto parts = split(trimmed(text), ' ');
  if (parts.size() != 2) return std::nullopt;
  const auto quota = integer(parts[0]), period = integer(parts[1]);
  if (!quota || !period || *quota <= 0 || *period <= 0) return std::nullopt;
  return static_cast<double>(*quota) / static_cast<double>(*period);
}

std::optional<double> parse_cfs_quota(std::string_view quota_us, std::string_view period_us) {
  const auto quota = integer(quota_us), period = integer(period_us);
  if (!quota || !period || *quota <= 0 || *period <= 0) return std::nullopt;
  return static_cast<double>(*quota) / static_cast<double>(*period);
}

std::optional<CpuQuota> cpu_quota_from(const std::string& proc_self_cgroup, const std::string& mountinfo,
                                       const ReadText& read) {
  std::optional<CpuQuota> best;
  for (const Hierarchy& h : hierarchies(proc_self_cgroup, mountinfo)) {
    // From the process's group up to the mount's top, each level's own limit.
    for (std::string dir = group_dir(h);;) {
      const std::string file = dir + (h.v2 ? "/cpu.max" : "/cpu.cfs_quota_us");
      std::optional<double> cpus;
      if (const auto text = read(file)) {
        if (h.v2) cpus = parse_cpu_max(*text);
        else if (const auto period = read(dir + "/cpu.cfs_period_us")) cpus = parse_cfs_quota(*text, *period);
      }
      if (cpus && (!best || *cpus < best->cpus)) best = CpuQuota{*cpus, file};
      if (dir.size() <= h.mount_point.size()) break;
      dir = dir.substr(0, dir.rfind('/'));
      if (dir.size() < h.mount_point.size()) dir = h.mount_point;
    }
  }
  return best;
}

std::optional<CpuQuota> cpu_quota() {
  const ReadText read = [](const std::string& path) -> std::optional<std::string> {
    std::ifstream in(path);
    if (!in) return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  };
  const auto cgroup = read("/proc/self/cgroup"), mountinfo = read("/proc/self/mountinfo");
  if (!cgroup || !mountinfo) return std::nullopt;
  return cpu_quota_from(*cgroup, *mountinfo, read);
}

}  // namespace rlx::util
