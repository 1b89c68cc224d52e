// env.cpp: environment capture from local files only (see env.h for the fields and sources).
//
// Every reader tolerates a missing file: containers hide /sys/class/dmi, laptops have no
// /proc/driver/nvidia, ARM machines have no "model name". A missing fact stays null so the
// Markdown report can say "unknown" rather than print something plausible and wrong.
#include "env/env.h"
#include "env/memory.h"

#include <fmt/format.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include "platform/platform.h"
#include "util/sysconf_caches.h"
#include "util/text_file.h"

namespace rlx::env {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

std::string trim(std::string s) {
  auto issp = [](unsigned char c) { return std::isspace(c) != 0; };
  while (!s.empty() && issp(static_cast<unsigned char>(s.back()))) s.pop_back();
  size_t i = 0;
  while (i < s.size() && issp(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

std::optional<std::string> read_line(const std::string& path) {
  auto s = util::read_text_file(path);
  if (!s) return std::nullopt;
  std::string t = trim(*s);
  if (t.empty()) return std::nullopt;
  return t;
}

Json opt(const std::optional<std::string>& s) {
  return s ? Json(*s) : Json(nullptr);
}

// "key : value" lines of /proc/cpuinfo, /proc/meminfo, /etc/os-release ("KEY=value").
std::string field(const std::string& line, char sep, std::string* key) {
  size_t p = line.find(sep);
  if (p == std::string::npos) return "";
  *key = trim(line.substr(0, p));
  return trim(line.substr(p + 1));
}

std::string join_words(const std::vector<std::string>& words) {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

std::string unquote(std::string s) {
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front())
    s = s.substr(1, s.size() - 2);
  return s;
}

// ARM's ids in /proc/cpuinfo (MIDR fields), from Arm's and the vendors' technical reference
// manuals: the implementers and cores rlx is likely to meet (Graviton, Ampere, Grace, Raspberry Pi).
std::string arm_implementer_name(const std::string& id) {
  static const std::map<std::string, std::string> kNames = {
      {"0x41", "ARM"},    {"0x42", "Broadcom"}, {"0x46", "Fujitsu"}, {"0x48", "HiSilicon"},
      {"0x4e", "NVIDIA"}, {"0x51", "Qualcomm"}, {"0x61", "Apple"},   {"0xc0", "Ampere"}};
  auto it = kNames.find(id);
  return it == kNames.end() ? "" : it->second;
}

std::string arm_core_name(const std::string& implementer, const std::string& part) {
  if (implementer != "0x41") return "";
  static const std::map<std::string, std::string> kArm = {
      {"0xd03", "Cortex-A53"},  {"0xd04", "Cortex-A35"},  {"0xd05", "Cortex-A55"},  {"0xd07", "Cortex-A57"},
      {"0xd08", "Cortex-A72"},  {"0xd09", "Cortex-A73"},  {"0xd0a", "Cortex-A75"},  {"0xd0b", "Cortex-A76"},
      {"0xd0c", "Neoverse-N1"}, {"0xd40", "Neoverse-V1"}, {"0xd49", "Neoverse-N2"}, {"0xd4f", "Neoverse-V2"}};
  auto it = kArm.find(part);
  return it == kArm.end() ? "" : it->second;
}

// "ARM Neoverse-N1" from the implementer and part ids; the raw ids when the core is not known.
std::string arm_cpu_name(const std::string& implementer, const std::string& part) {
  const std::string vendor = arm_implementer_name(implementer);
  const std::string core = arm_core_name(implementer, part);
  if (!vendor.empty() && !core.empty()) return vendor + " " + core;
  return fmt::format("{} part {}", vendor.empty() ? "ARM implementer " + implementer : vendor, part);
}

}  // namespace

std::string cpu_model_from_cpuinfo(const std::string& cpuinfo_text) {
  std::string model_name, implementer, part, processor, hardware;
  std::istringstream in(cpuinfo_text);
  std::string line;
  while (std::getline(in, line)) {
    std::string key;
    const std::string val = field(line, ':', &key);
    std::string* slot = key == "model name"        ? &model_name
                        : key == "CPU implementer" ? &implementer
                        : key == "CPU part"        ? &part
                        : key == "Processor"       ? &processor  // "processor" (lower case) is an index
                        : key == "Hardware"        ? &hardware
                                                   : nullptr;
    if (slot && slot->empty()) *slot = val;
  }
  if (!model_name.empty()) return model_name;
  if (!implementer.empty() && !part.empty()) return arm_cpu_name(implementer, part);
  return !processor.empty() ? processor : hardware;
}

namespace {

void cpu_info(const std::string& root, Json& out) {
  auto text = util::read_text_file(root + "/proc/cpuinfo");
  long threads = 0;
  std::set<std::pair<std::string, std::string>> cores;
  std::set<std::string> sockets;
  std::string model, flags, phys, hwcap_flags;
  if (text) {
    std::istringstream in(*text);
    std::string line;
    while (std::getline(in, line)) {
      std::string key;
      std::string val = field(line, ':', &key);
      if (key == "processor")
        ++threads;
      else if ((key == "flags" || key == "Features") && flags.empty())
        flags = val;
      else if (key == "physical id") {
        phys = val;
        sockets.insert(val);
      } else if (key == "core id")
        cores.insert({phys, val});
    }
  }
  if (root.empty()) {
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (online > 0) threads = online;
    // On arm64 the kernel's hwcaps are the flags (the same words as "Features", and right under
    // qemu-user, whose /proc/cpuinfo is the host's).
    const auto& f = platform::cpu_features();
    if (!f.words.empty()) hwcap_flags = join_words(f.words);
  }
  if (text) model = cpu_model_from_cpuinfo(*text);
  if (root.empty() && platform::emulation().host_cpuinfo) {
    // The CPU this process sees is the emulator's; the cpuinfo's model is the host's.
    if (out["emulation"].is_object() && !model.empty()) out["emulation"]["host_cpu"] = model;
    model = std::string("emulated ") + platform::arch_name() + " CPU (" + platform::emulation().kind + ")";
  }
  out["cpu_model"] = model.empty() ? Json(nullptr) : Json(model);
  out["cpu_threads"] = threads > 0 ? Json(threads) : Json(nullptr);
  // Without topology lines (some VMs, ARM) each thread counts as a core: the best local answer.
  out["cpu_cores"] = !cores.empty() ? Json(static_cast<long>(cores.size())) : out["cpu_threads"];
  out["cpu_sockets"] = !sockets.empty() ? Json(static_cast<long>(sockets.size())) : Json(nullptr);
  // x86's hypervisor flag (CPUID) from the cpuinfo itself: under qemu-user that is the host's,
  // whose virtualization the environment records.
  out["hypervisor"] = (" " + flags + " ").find(" hypervisor ") != std::string::npos;
  if (!hwcap_flags.empty()) flags = hwcap_flags;
  out["cpu_flags"] = flags.empty() ? Json(nullptr) : Json(flags);
  // The vector extensions that decide peak FLOP/s, in a fixed order.
  static const char* kSimd[] = {"sse4_2",      "avx",         "avx2",     "fma",      "avx512f", "avx512bw",
                                "avx512_vnni", "avx512_bf16", "amx_bf16", "amx_tile", "neon",    "asimd",
                                "asimddp",     "sve",         "sve2",     "bf16",     "svebf16", "i8mm"};
  Json simd = Json::array();
  std::string padded = " " + flags + " ";
  for (const char* f : kSimd)
    if (padded.find(std::string(" ") + f + " ") != std::string::npos) simd.push_back(f);
  out["simd"] = simd;
}

void caches(const std::string& root, Json& out) {
  Json list = Json::array();
  std::string dir = root + "/sys/devices/system/cpu/cpu0/cache";
  std::error_code ec;
  std::vector<std::string> idx;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().filename().string().rfind("index", 0) == 0) idx.push_back(e.path().string());
  std::sort(idx.begin(), idx.end());
  for (const auto& d : idx) {
    auto level = read_line(d + "/level");
    auto type = read_line(d + "/type");
    auto size = read_line(d + "/size");
    if (!level || !size) continue;
    Json c = {
        {"level", std::atoi(level->c_str())}, {"type", opt(type)}, {"size_bytes", parse_size_bytes(*size)}};
    if (auto shared = read_line(d + "/shared_cpu_list")) c["shared_cpus"] = *shared;
    c["source"] = "sysfs";
    list.push_back(c);
  }
  // Some VMs have no cache directory in /sys: on the real machine (no fixture root) glibc's
  // sysconf answers from CPUID, without saying which CPUs share a level.
  if (list.empty() && root.empty()) {
    for (const auto& c : util::sysconf_caches())
      list.push_back({{"level", c.level}, {"type", c.type}, {"size_bytes", c.bytes}, {"source", "sysconf"}});
  }
  out["cpu_caches"] = list;
}

void memory(const std::string& root, Json& out) {
  const auto total = meminfo_bytes(root, "MemTotal");
  out["memory_bytes"] = total && *total > 0 ? Json(*total) : Json(nullptr);
}

void os_info(const std::string& root, Json& out) {
  out["host"] = opt(read_line(root + "/proc/sys/kernel/hostname"));
  if (root.empty()) {
    char buf[256] = {};
    if (gethostname(buf, sizeof buf - 1) == 0) out["host"] = std::string(buf);
  }
  out["os"] = nullptr;
  if (auto text = util::read_text_file(root + "/etc/os-release")) {
    std::istringstream in(*text);
    std::string line;
    while (std::getline(in, line)) {
      std::string key;
      std::string val = field(line, '=', &key);
      if (key == "PRETTY_NAME") out["os"] = unquote(val);
    }
  }
  auto release = read_line(root + "/proc/sys/kernel/osrelease");
  auto version = read_line(root + "/proc/sys/kernel/version");
  out["kernel"] = release ? Json(*release + (version ? " " + *version : "")) : Json(nullptr);
  struct utsname u {};
  out["arch"] =
      (root.empty() && uname(&u) == 0) ? Json(u.machine) : opt(read_line(root + "/proc/sys/kernel/arch"));
}

// The architecture and vector ISA rlx was built for and runs with (platform.h), and an emulator
// behind it: facts of this binary on this machine, so only on the real machine (no fixture root).
void platform_info(const std::string& root, Json& out) {
  if (!root.empty()) return;
  const auto& f = platform::cpu_features();
  out["arch_name"] = platform::arch_name();
  out["isa"] = platform::isa_text(f);
  if (f.sve_vector_bits > 0) out["sve_vector_bits"] = f.sve_vector_bits;
  const auto& e = platform::emulation();
  out["emulation"] = e.kind.empty() ? Json(nullptr) : Json({{"kind", e.kind}, {"evidence", e.evidence}});
}

bool cpuinfo_is_arm64(const std::string& root) {
  const auto text = util::read_text_file(root + "/proc/cpuinfo");
  return text && platform::cpuinfo_arch(*text) == "arm64";
}

// DMI names the hypervisor or cloud (without asking a metadata server, which needs the network).
void virtualization(const std::string& root, Json& out) {
  Json dmi = Json::object();
  for (const char* f : {"sys_vendor", "product_name", "product_version", "board_vendor", "bios_vendor",
                        "chassis_asset_tag", "board_asset_tag"}) {
    if (auto v = read_line(root + "/sys/class/dmi/id/" + f)) dmi[f] = *v;
  }
  out["dmi"] = dmi;
  auto get = [&](const char* k) { return dmi.contains(k) ? dmi[k].get<std::string>() : std::string(); };
  std::string vendor = get("sys_vendor"), product = get("product_name"), bios = get("bios_vendor");
  std::string cloud, instance;
  if (product.find("Google Compute Engine") != std::string::npos || vendor == "Google") {
    cloud = "gcp";
  } else if (vendor.find("Amazon EC2") != std::string::npos || bios.find("Amazon EC2") != std::string::npos) {
    cloud = "aws";
    instance = product;  // EC2 puts the instance type (m5.large, p4d.24xlarge) in product_name
  } else if (vendor == "Microsoft Corporation" &&
             get("chassis_asset_tag") == "7783-7084-3265-9085-8269-3286-77") {
    cloud = "azure";  // Azure's documented chassis asset tag
  } else if (vendor.find("Alibaba") != std::string::npos) {
    cloud = "alibaba";
  } else if (vendor.find("OpenStack") != std::string::npos ||
             product.find("OpenStack") != std::string::npos) {
    cloud = "openstack";
  }
  out["cloud_provider"] = cloud.empty() ? Json(nullptr) : Json(cloud);
  out["instance_type"] = instance.empty() ? Json(nullptr) : Json(instance);
  out["cloud_zone"] = nullptr;  // only a metadata server knows it; the user may pass it in
  std::string virt;
  static const std::pair<const char*, const char*> kHyper[] = {{"KVM", "kvm"},
                                                               {"QEMU", "qemu"},
                                                               {"VMware", "vmware"},
                                                               {"VirtualBox", "virtualbox"},
                                                               {"Xen", "xen"},
                                                               {"Microsoft Corporation", "hyper-v"},
                                                               {"Amazon EC2", "nitro"},
                                                               {"Google", "kvm (gce)"},
                                                               {"Parallels", "parallels"},
                                                               {"Bochs", "bochs"}};
  for (const auto& [needle, name] : kHyper) {
    if (vendor.find(needle) != std::string::npos || product.find(needle) != std::string::npos ||
        bios.find(needle) != std::string::npos) {
      virt = name;
      break;
    }
  }
  if (virt.empty() && out["hypervisor"].get<bool>()) virt = "hypervisor (unnamed)";
  // arm64 CPUs have no hypervisor flag: unless DMI names a hypervisor nothing local tells a VM
  // (Docker Desktop's on a Mac, a cloud's) from bare metal, so rlx claims neither.
  if (virt.empty() && cpuinfo_is_arm64(root)) {
    virt = dmi.empty()
               ? "unknown (arm64: no hypervisor flag, no DMI)"
               : fmt::format("none detected (arm64: no hypervisor flag; DMI names {} {})", vendor, product);
  }
  if (virt.empty()) virt = "none (bare metal)";
  out["virtualization"] = virt;
}

void container(const std::string& root, Json& out) {
  std::string kind;
  std::error_code ec;
  if (fs::exists(root + "/.dockerenv", ec))
    kind = "docker";
  else if (fs::exists(root + "/run/.containerenv", ec))
    kind = "podman";
  else if (fs::exists(root + "/.singularity.d", ec))
    kind = "apptainer";  // Apptainer and Singularity images carry this folder (Slurm clusters)
  if (kind.empty()) {
    if (auto cg = util::read_text_file(root + "/proc/1/cgroup")) {
      if (cg->find("kubepods") != std::string::npos)
        kind = "kubernetes";
      else if (cg->find("docker") != std::string::npos)
        kind = "docker";
      else if (cg->find("lxc") != std::string::npos)
        kind = "lxc";
      else if (cg->find("containerd") != std::string::npos)
        kind = "containerd";
    }
  }
  if (kind.empty() && root.empty()) {
    if (const char* c = std::getenv("container")) kind = c;  // systemd-nspawn, podman set it
  }
  out["container"] = kind.empty() ? Json("none") : Json(kind);
}

// Runs nvidia-smi (only when present) for names, memory and driver of every GPU.
Json nvidia_smi() {
  Json gpus = Json::array();
  std::error_code ec;
  const char* paths[] = {"/usr/bin/nvidia-smi", "/usr/local/bin/nvidia-smi",
                         "/usr/local/nvidia/bin/nvidia-smi"};
  const char* found = nullptr;
  for (const char* p : paths)
    if (fs::exists(p, ec)) found = p;
  if (!found) return gpus;
  std::string cmd = fmt::format(
      "{} --query-gpu=name,memory.total,driver_version --format=csv,noheader,nounits 2>/dev/null", found);
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return gpus;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) {
    std::vector<std::string> parts;
    std::stringstream ss(buf);
    std::string item;
    while (std::getline(ss, item, ',')) parts.push_back(trim(item));
    if (parts.size() < 3 || parts[0].empty()) continue;
    long long mib = std::atoll(parts[1].c_str());
    gpus.push_back({{"name", parts[0]},
                    {"memory_bytes", mib > 0 ? Json(mib * 1024 * 1024) : Json(nullptr)},
                    {"driver", parts[2]}});
  }
  pclose(p);
  return gpus;
}

}  // namespace

// The driver's version from the first line of /proc/driver/nvidia/version: the first word after
// "Kernel Module" made of digits and dots. The proprietary module writes "NVIDIA UNIX x86_64 Kernel
// Module  535.54.03  Tue Jun ...", the open one "NVIDIA UNIX Open Kernel Module for x86_64
// 580.159.04  Release Build ...", where the next word is "for" (seen on an H100, 2026-11-27).
std::optional<std::string> driver_version(const std::string& line) {
  size_t k = line.find("Kernel Module");
  if (k == std::string::npos) return std::nullopt;
  std::istringstream rest(line.substr(k + 13));
  std::string word;
  while (rest >> word) {
    bool digits_and_dots = std::isdigit(static_cast<unsigned char>(word[0])) &&
                           word.find_first_not_of("0123456789.") == std::string::npos;
    if (digits_and_dots && word.find('.') != std::string::npos) return word;
  }
  return std::nullopt;
}

namespace {

void gpus(const std::string& root, bool run_smi, Json& out) {
  std::optional<std::string> driver;
  if (auto v = util::read_text_file(root + "/proc/driver/nvidia/version")) {
    std::istringstream in(*v);
    std::string line;
    std::getline(in, line);
    driver = driver_version(line);
  }
  Json list = run_smi && root.empty() ? nvidia_smi() : Json::array();
  if (list.empty()) {
    std::error_code ec;
    std::vector<std::string> dirs;
    for (const auto& e : fs::directory_iterator(root + "/proc/driver/nvidia/gpus", ec))
      dirs.push_back(e.path().string());
    std::sort(dirs.begin(), dirs.end());
    for (const auto& d : dirs) {
      auto info = util::read_text_file(d + "/information");
      if (!info) continue;
      std::istringstream in(*info);
      std::string line;
      while (std::getline(in, line)) {
        std::string key;
        std::string val = field(line, ':', &key);
        if (key == "Model")
          list.push_back({{"name", val}, {"memory_bytes", nullptr}, {"driver", opt(driver)}});
      }
    }
  }
  out["gpus"] = list;
  out["gpu_name"] = list.empty() ? Json(nullptr) : list[0]["name"];
  out["gpu_memory_bytes"] = list.empty() ? Json(nullptr) : list[0]["memory_bytes"];
  out["gpu_driver"] = driver ? Json(*driver) : (list.empty() ? Json(nullptr) : list[0]["driver"]);
}

// The installed CUDA toolkit and cuDNN, from their version files.
void cuda_versions(const std::string& root, Json& out) {
  out["cuda"] = nullptr;
  if (auto j = util::read_text_file(root + "/usr/local/cuda/version.json")) {
    Json v = Json::parse(*j, nullptr, false);
    if (v.is_object() && v.contains("cuda") && v["cuda"].contains("version"))
      out["cuda"] = v["cuda"]["version"];
  } else if (auto t = read_line(root + "/usr/local/cuda/version.txt")) {
    out["cuda"] = *t;
  } else if (auto h = util::read_text_file(root + "/usr/local/cuda/include/cuda.h")) {
    // Pip-style and minimal toolkits ship no version file; the header's CUDA_VERSION is 1000*major +
    // 10*minor.
    std::istringstream in(*h);
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream w(line);
      std::string def, name;
      int val = -1;
      if ((w >> def >> name >> val) && def == "#define" && name == "CUDA_VERSION" && val > 0) {
        out["cuda"] = fmt::format("{}.{}", val / 1000, val % 1000 / 10);
        break;
      }
    }
  }
  out["cudnn"] = nullptr;
  // Debian's libcudnn packages put the header in the multiarch folder of this build's architecture.
  const std::string multiarch_header = std::string("/usr/include/") + platform::multiarch() + "/cudnn_version.h";
  for (const std::string& h :
       {std::string("/usr/include/cudnn_version.h"), std::string("/usr/local/cuda/include/cudnn_version.h"),
        multiarch_header}) {
    auto text = util::read_text_file(root + h);
    if (!text) continue;
    int major = -1, minor = -1, patch = -1;
    std::istringstream in(*text);
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream w(line);
      std::string def, name;
      int val = -1;
      if (!(w >> def >> name >> val) || def != "#define") continue;
      if (name == "CUDNN_MAJOR")
        major = val;
      else if (name == "CUDNN_MINOR")
        minor = val;
      else if (name == "CUDNN_PATCHLEVEL")
        patch = val;
    }
    if (major >= 0) {
      out["cudnn"] = fmt::format("{}.{}.{}", major, std::max(minor, 0), std::max(patch, 0));
      break;
    }
  }
}

void storage(const std::string& root, Json& out) {
  Json s = Json::object();
  if (auto mounts = util::read_text_file(root + "/proc/mounts")) {
    std::istringstream in(*mounts);
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream w(line);
      std::string dev, mnt, type;
      w >> dev >> mnt >> type;
      if (mnt == "/") s["root_fs"] = type, s["root_device"] = dev;
    }
  }
  struct statvfs v {};
  if (root.empty() && statvfs("/", &v) == 0)
    s["root_bytes"] = static_cast<long long>(v.f_blocks) * static_cast<long long>(v.f_frsize);
  out["storage"] = s;
}

}  // namespace

long long parse_size_bytes(const std::string& text) {
  std::string t = trim(text);
  size_t i = 0;
  while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
  if (i == 0) return -1;
  long long n = std::atoll(t.substr(0, i).c_str());
  std::string unit = trim(t.substr(i));
  std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char c) { return std::tolower(c); });
  // Cache sizes and /proc/meminfo use binary multiples even where they write "kB".
  if (unit.empty() || unit == "b") return n;
  if (unit == "k" || unit == "kb" || unit == "kib") return n * 1024;
  if (unit == "m" || unit == "mb" || unit == "mib") return n * 1024 * 1024;
  if (unit == "g" || unit == "gb" || unit == "gib") return n * 1024LL * 1024 * 1024;
  return -1;
}

Json capture(const std::string& label, const Sources& src) {
  Json out = Json::object();
  out["label"] = label;
  os_info(src.root, out);
  platform_info(src.root, out);
  cpu_info(src.root, out);
  caches(src.root, out);
  memory(src.root, out);
  virtualization(src.root, out);
  container(src.root, out);
  gpus(src.root, src.run_nvidia_smi, out);
  cuda_versions(src.root, out);
  storage(src.root, out);
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  out["captured_at"] = buf;
  return out;
}

std::set<std::string> cpu_flags_from_cpuinfo(const std::string& cpuinfo_text) {
  std::set<std::string> out;
  std::istringstream in(cpuinfo_text);
  std::string line;
  while (std::getline(in, line)) {
    std::string key;
    const std::string val = field(line, ':', &key);
    if (key != "flags" && key != "Features") continue;
    std::istringstream words(val);
    std::string w;
    while (words >> w) out.insert(w);
    break;
  }
  return out;
}

std::set<std::string> cpu_flags(const Sources& src) {
  const auto& f = platform::cpu_features();
  if (src.root.empty() && !f.words.empty()) return {f.words.begin(), f.words.end()};
  auto text = util::read_text_file(src.root + "/proc/cpuinfo");
  return text ? cpu_flags_from_cpuinfo(*text) : std::set<std::string>{};
}

std::string cpu_model(const Sources& src) {
  Json out;
  cpu_info(src.root, out);
  return out["cpu_model"].is_string() ? out["cpu_model"].get<std::string>() : std::string();
}

}  // namespace rlx::env
