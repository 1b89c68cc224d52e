// cgroup.cpp: see cgroup.h.
#include "util/cgroup.h"

#include <sstream>

namespace rlx::util {

namespace {

bool has_token(std::string_view list, std::string_view token) {
  for (size_t at = 0; at <= list.size();) {
    const size_t comma = std::min(list.find(',', at), list.size());
    if (list.substr(at, comma - at) == token) return true;
    at = comma + 1;
  }
  return false;
}

// The directory of the process's group under the mount: its path less the mount's root.
std::string group_dir(const CgroupHierarchy& h) {
  std::string_view rel = h.group;
  if (h.mount_root != "/")
    rel = rel.rfind(h.mount_root, 0) == 0 ? rel.substr(h.mount_root.size()) : std::string_view{};
  while (!rel.empty() && rel.back() == '/') rel.remove_suffix(1);
  std::string dir = h.mount_point;
  dir.append(rel);
  return dir;
}

}  // namespace

std::vector<CgroupHierarchy> cgroup_hierarchies(const std::string& proc_self_cgroup,
                                                const std::string& mountinfo, std::string_view controller) {
  std::string v1_group, v2_group;
  bool has_v1 = false, has_v2 = false;
  std::istringstream groups(proc_self_cgroup);
  for (std::string line; std::getline(groups, line);) {
    const size_t a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    const std::string_view id(line.data(), a), controllers(line.data() + a + 1, b - a - 1);
    if (id == "0" && controllers.empty()) {
      has_v2 = true;
      v2_group = line.substr(b + 1);
    } else if (has_token(controllers, controller)) {
      has_v1 = true;
      v1_group = line.substr(b + 1);
    }
  }
  std::vector<CgroupHierarchy> out;
  if (mountinfo.empty()) {
    if (has_v1) out.push_back({false, "/sys/fs/cgroup/" + std::string(controller), "/", v1_group});
    if (has_v2) {
      out.push_back({true, "/sys/fs/cgroup", "/", v2_group});
      out.push_back({true, "/sys/fs/cgroup/unified", "/", v2_group});
    }
    return out;
  }
  // "ID PARENT MAJ:MIN ROOT POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER_OPTIONS"
  std::istringstream mounts(mountinfo);
  for (std::string line; std::getline(mounts, line);) {
    const size_t dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    std::istringstream head(line.substr(0, dash)), tail(line.substr(dash + 3));
    std::string id, parent, dev, root, point, type, source, super;
    if (!(head >> id >> parent >> dev >> root >> point) || !(tail >> type >> source >> super)) continue;
    if (type == "cgroup2" && has_v2) out.push_back({true, point, root, v2_group});
    if (type == "cgroup" && has_v1 && has_token(super, controller))
      out.insert(out.begin(), {false, point, root, v1_group});
  }
  return out;
}

std::vector<std::string> cgroup_dirs_up(const CgroupHierarchy& h) {
  std::vector<std::string> out;
  for (std::string dir = group_dir(h);;) {
    out.push_back(dir);
    if (dir.size() <= h.mount_point.size()) break;
    dir.resize(dir.rfind('/'));
    if (dir.size() < h.mount_point.size()) dir = h.mount_point;
  }
  return out;
}

}  // namespace rlx::util
