// cpu_quota.cpp: see cpu_quota.h.
#include "util/cpu_quota.h"

#include <charconv>
#include <vector>

#include "util/cgroup.h"
#include "util/text_file.h"

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
  for (const CgroupHierarchy& h : cgroup_hierarchies(proc_self_cgroup, mountinfo, "cpu")) {
    for (const std::string& dir : cgroup_dirs_up(h)) {
      const std::string file = dir + (h.v2 ? "/cpu.max" : "/cpu.cfs_quota_us");
      std::optional<double> cpus;
      if (const auto text = read(file)) {
        if (h.v2)
          cpus = parse_cpu_max(*text);
        else if (const auto period = read(dir + "/cpu.cfs_period_us"))
          cpus = parse_cfs_quota(*text, *period);
      }
      if (cpus && (!best || *cpus < best->cpus)) best = CpuQuota{*cpus, file};
    }
  }
  return best;
}

std::optional<CpuQuota> cpu_quota() {
  const ReadText read = read_text_file;
  const auto cgroup = read("/proc/self/cgroup"), mountinfo = read("/proc/self/mountinfo");
  if (!cgroup || !mountinfo) return std::nullopt;
  return cpu_quota_from(*cgroup, *mountinfo, read);
}

}  // namespace rlx::util
