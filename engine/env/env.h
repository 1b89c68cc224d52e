// env.h: what machine and system software a run happened on (engine layer, no Lua).
//
// A performance number means little without its environment, and seed 000 asks for it to be
// written down by hand (logs/env_info.md). capture() reads it from the machine instead, using only
// local sources so it works offline and inside containers: uname, /proc/cpuinfo, /proc/meminfo,
// /sys/devices/system/cpu/cpu0/cache, /sys/class/dmi/id (virtualization, cloud vendor, instance
// type), /.dockerenv and /proc/1/cgroup (containers), /proc/driver/nvidia and nvidia-smi (GPUs),
// and the CUDA/cuDNN version files. Anything it cannot find is left out (null), never guessed.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

namespace rlx::env {

// Where capture() reads from; tests point it at a fake tree.
struct Sources {
  std::string root = "";  // prefix for /proc, /sys, /etc, ... ("" = the real machine)
  bool run_nvidia_smi = true;
};

// The environment as a json object with fields: host, os, kernel, arch (uname's: "x86_64",
// "aarch64"), arch_name ("x86-64", "arm64": the build's, platform.h), isa (the vector ISA rlx's
// kernels use, in words), sve_vector_bits (arm64 with SVE), emulation ({kind, evidence, host_cpu}
// under qemu-user, else null; cpu_model then names the emulated CPU), cpu_model, cpu_sockets,
// cpu_cores, cpu_threads, cpu_flags, simd (the vector extensions among the flags), cpu_caches
// [{level, type, size_bytes, shared_cpus}], memory_bytes, virtualization, hypervisor (bool),
// dmi {sys_vendor, product_name, ...}, cloud_provider, instance_type, cloud_zone, container,
// gpus [{name, memory_bytes, driver}], gpu_name, gpu_memory_bytes, gpu_driver, cuda, cudnn,
// storage {root_fs, root_bytes}, label, captured_at.
nlohmann::json capture(const std::string& label, const Sources& src = {});

// capture()'s cpu_model alone, "" when /proc/cpuinfo names no CPU. Cheap: reads one file (the
// trainer's devices() and the peaks' records use it; capture() is the full record).
std::string cpu_model(const Sources& src = {});

// The words of the first "flags" (x86) or "Features" (ARM) line of /proc/cpuinfo: what the kernel
// lets this process use (a VM may hide features the CPU model has). Empty when there is none. On
// arm64 (no fixture root) the same words from the kernel's hwcaps (platform::cpu_features), which
// stay right under qemu-user.
std::set<std::string> cpu_flags(const Sources& src = {});
std::set<std::string> cpu_flags_from_cpuinfo(const std::string& cpuinfo_text);

// The CPU's name from the text of /proc/cpuinfo, the one parser rlx has: x86's "model name";
// on ARM (whose kernels usually print no "model name") the "CPU implementer"/"CPU part" ids
// decoded for common cores ("ARM Neoverse-N1"; unknown ids as "ARM implementer 0x41 part
// 0xd4f"), else the "Processor" or "Hardware" line; "" when none is there.
std::string cpu_model_from_cpuinfo(const std::string& cpuinfo_text);

// The NVIDIA driver's version from the first line of /proc/driver/nvidia/version, for the
// proprietary and the open kernel module alike ("580.159.04"); nullopt when the line names none.
std::optional<std::string> driver_version(const std::string& first_line);

// Parses "32K", "1024 kB", "8M" (cache sizes, meminfo) into bytes; -1 when unparsable.
long long parse_size_bytes(const std::string& text);

}  // namespace rlx::env
