// test_env.cpp: environment capture (engine/env) against a fake machine tree, so the expected
// values are known exactly, plus a smoke test on the real machine.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "env/env.h"
#include "platform/platform.h"

namespace fs = std::filesystem;

namespace {

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

fs::path fake_machine() {
  fs::path r = fs::path(RLX_TEST_TMP) / "env-fake-root";
  fs::remove_all(r);
  write(r / "proc/cpuinfo",
        "processor\t: 0\nmodel name\t: Fake CPU 9000\nphysical id\t: 0\ncore id\t: 0\n"
        "flags\t\t: fpu sse4_2 avx avx2 fma hypervisor avx512f\n\n"
        "processor\t: 1\nmodel name\t: Fake CPU 9000\nphysical id\t: 0\ncore id\t: 0\n\n"
        "processor\t: 2\nmodel name\t: Fake CPU 9000\nphysical id\t: 0\ncore id\t: 1\n\n"
        "processor\t: 3\nmodel name\t: Fake CPU 9000\nphysical id\t: 0\ncore id\t: 1\n");
  write(r / "proc/meminfo", "MemTotal:       16384000 kB\nMemFree:         1000 kB\n");
  write(r / "proc/sys/kernel/hostname", "fakehost\n");
  write(r / "proc/sys/kernel/osrelease", "6.1.0-fake\n");
  write(r / "proc/sys/kernel/version", "#1 SMP\n");
  write(r / "etc/os-release", "NAME=\"Debian\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n");
  fs::path c = r / "sys/devices/system/cpu/cpu0/cache";
  write(c / "index0/level", "1\n"); write(c / "index0/type", "Data\n"); write(c / "index0/size", "48K\n");
  write(c / "index1/level", "2\n"); write(c / "index1/type", "Unified\n"); write(c / "index1/size", "2048K\n");
  write(c / "index2/level", "3\n"); write(c / "index2/type", "Unified\n"); write(c / "index2/size", "32M\n");
  write(r / "sys/class/dmi/id/sys_vendor", "Amazon EC2\n");
  write(r / "sys/class/dmi/id/product_name", "p4d.24xlarge\n");
  write(r / ".dockerenv", "");
  write(r / "proc/driver/nvidia/version",
        "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.54.03  Tue Jun  6 22:20:39 UTC 2023\n");
  write(r / "proc/driver/nvidia/gpus/0000:00:1e.0/information", "Model: \t\t NVIDIA A100-SXM4-40GB\nIRQ: 1\n");
  write(r / "usr/local/cuda/include/cuda.h", "#define CUDA_VERSION 12020\n");
  write(r / "usr/include/cudnn_version.h",
        "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 2\n");
  write(r / "proc/mounts", "overlay / overlay rw 0 0\nproc /proc proc rw 0 0\n");
  return r;
}

}  // namespace

TEST_CASE("parse_size_bytes reads cache and meminfo sizes") {
  CHECK(rlx::env::parse_size_bytes("32K") == 32 * 1024);
  CHECK(rlx::env::parse_size_bytes("1024 kB") == 1024 * 1024);
  CHECK(rlx::env::parse_size_bytes("8M") == 8 * 1024 * 1024);
  CHECK(rlx::env::parse_size_bytes("512") == 512);
  CHECK(rlx::env::parse_size_bytes("lots") == -1);
}

TEST_CASE("driver_version reads the proprietary and the open kernel module's line") {
  using rlx::env::driver_version;
  const std::string proprietary =
      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.54.03  Tue Jun  6 22:20:39 UTC 2023";
  CHECK(driver_version(proprietary) == "535.54.03");
  // The open module (an H100 image, 2026-11-27): "for" follows "Kernel Module", the version later.
  CHECK(driver_version("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  "
                       "(dvs-builder@U22-I3-AM02-24-3)  Wed Oct  1 20:19:10 UTC 2025") == "580.159.04");
  CHECK_FALSE(driver_version("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64").has_value());
  CHECK_FALSE(driver_version("no such line").has_value());
}

TEST_CASE("capture reads every field from a fake machine") {
  rlx::env::Sources src;
  src.root = fake_machine().string();
  auto e = rlx::env::capture("p4d", src);
  CHECK(e["label"] == "p4d");
  CHECK(e["host"] == "fakehost");
  CHECK(e["os"] == "Debian GNU/Linux 12 (bookworm)");
  CHECK(e["kernel"] == "6.1.0-fake #1 SMP");
  CHECK(e["cpu_model"] == "Fake CPU 9000");
  CHECK(e["cpu_threads"] == 4);
  CHECK(e["cpu_cores"] == 2);
  CHECK(e["cpu_sockets"] == 1);
  CHECK(e["simd"] == nlohmann::json({"sse4_2", "avx", "avx2", "fma", "avx512f"}));
  CHECK(e["hypervisor"] == true);
  REQUIRE(e["cpu_caches"].size() == 3);
  CHECK(e["cpu_caches"][0]["size_bytes"] == 48 * 1024);
  CHECK(e["cpu_caches"][2]["level"] == 3);
  CHECK(e["cpu_caches"][2]["size_bytes"] == 32LL * 1024 * 1024);
  CHECK(e["memory_bytes"] == 16384000LL * 1024);
  CHECK(e["cloud_provider"] == "aws");
  CHECK(e["instance_type"] == "p4d.24xlarge");
  CHECK(e["virtualization"] == "nitro");
  CHECK(e["container"] == "docker");
  CHECK(e["gpu_name"] == "NVIDIA A100-SXM4-40GB");
  CHECK(e["gpu_driver"] == "535.54.03");
  CHECK(e["cuda"] == "12.2");
  CHECK(e["cudnn"] == "8.9.2");
  CHECK(e["storage"]["root_fs"] == "overlay");
  CHECK(e["captured_at"].get<std::string>().size() == 20);
}

TEST_CASE("capture of an empty tree leaves unknown facts null instead of guessing") {
  fs::path r = fs::path(RLX_TEST_TMP) / "env-empty-root";
  fs::remove_all(r);
  fs::create_directories(r);
  rlx::env::Sources src;
  src.root = r.string();
  auto e = rlx::env::capture("", src);
  CHECK(e["cpu_model"].is_null());
  CHECK(e["memory_bytes"].is_null());
  CHECK(e["gpu_name"].is_null());
  CHECK(e["gpus"].empty());
  CHECK(e["cuda"].is_null());
  CHECK(e["container"] == "none");
  CHECK(e["virtualization"] == "none (bare metal)");
}

TEST_CASE("capture on this machine finds the basics") {
  auto e = rlx::env::capture("here");
  CHECK(e["cpu_threads"].get<long>() >= 1);
  CHECK(e["memory_bytes"].get<long long>() > 0);
  CHECK(e["host"].is_string());
  CHECK(e["kernel"].is_string());
}

TEST_CASE("capture on this machine names the architecture, the ISA and an emulator") {
  auto e = rlx::env::capture("here");
  const std::string arch = rlx::platform::arch_name();
  CHECK(e["arch_name"] == arch);
  CHECK(e["isa"] == rlx::platform::isa_text(rlx::platform::cpu_features()));
  CHECK(e["arch"] == (arch == "arm64" ? "aarch64" : "x86_64"));
  const auto& emu = rlx::platform::emulation();
  if (emu.kind.empty()) {
    CHECK(e["emulation"].is_null());
  } else {
    CHECK(e["emulation"]["kind"] == emu.kind);
    CHECK(e["emulation"]["evidence"] == emu.evidence);
  }
  if (emu.host_cpuinfo) {
    // Under qemu-user the cpuinfo is the host's: the model is named as emulated, the host's
    // kept apart, and the flags are this process's hwcaps, not the host's.
    CHECK(e["cpu_model"] == "emulated " + arch + " CPU (" + emu.kind + ")");
    CHECK(e["emulation"]["host_cpu"].is_string());
  }
  if (arch == "arm64") {
    const auto flags = rlx::env::cpu_flags();
    CHECK(flags.count("asimd") == 1);
    CHECK(flags.count("avx2") == 0);
    // arm64 has no hypervisor flag; under qemu-user the cpuinfo's, and so this, is the host's.
    if (!emu.host_cpuinfo) CHECK(e["hypervisor"] == false);
  }
}

// The one /proc/cpuinfo parser (issue 16): x86 names its CPU in "model name"; aarch64 kernels
// give only MIDR ids (implementer 0x41 = Arm, part 0xd0c = Neoverse-N1, as on AWS Graviton2);
// older 32-bit ARM kernels a "Processor" line; some boards only "Hardware".
TEST_CASE("cpu_model_from_cpuinfo names x86 and ARM CPUs") {
  using rlx::env::cpu_model_from_cpuinfo;
  CHECK(cpu_model_from_cpuinfo("processor\t: 0\nvendor_id\t: GenuineIntel\n"
                               "model name\t: Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz\n"
                               "flags\t\t: fpu avx2\n\nprocessor\t: 1\n"
                               "model name\t: Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz\n") ==
        "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz");
  const std::string graviton2 =
      "processor\t: 0\nBogoMIPS\t: 243.75\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32\n"
      "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x3\nCPU part\t: 0xd0c\n"
      "CPU revision\t: 1\n\nprocessor\t: 1\nCPU implementer\t: 0x41\nCPU part\t: 0xd0c\n";
  CHECK(cpu_model_from_cpuinfo(graviton2) == "ARM Neoverse-N1");
  CHECK(cpu_model_from_cpuinfo("processor\t: 0\nCPU implementer\t: 0x41\nCPU part\t: 0xfff\n") ==
        "ARM part 0xfff");
  CHECK(cpu_model_from_cpuinfo("processor\t: 0\nCPU implementer\t: 0x99\nCPU part\t: 0x001\n") ==
        "ARM implementer 0x99 part 0x001");
  CHECK(cpu_model_from_cpuinfo("Processor\t: ARMv7 Processor rev 5 (v7l)\nprocessor\t: 0\n"
                               "Hardware\t: BCM2835\n") == "ARMv7 Processor rev 5 (v7l)");
  CHECK(cpu_model_from_cpuinfo("processor\t: 0\nHardware\t: Qualcomm Technologies, Inc SM8150\n") ==
        "Qualcomm Technologies, Inc SM8150");
  CHECK(cpu_model_from_cpuinfo("processor\t: 0\n").empty());
  CHECK(cpu_model_from_cpuinfo("").empty());
}

TEST_CASE("capture reads an ARM machine's CPU name through the same parser") {
  fs::path r = fs::path(RLX_TEST_TMP) / "env-fake-arm";
  fs::remove_all(r);
  write(r / "proc/cpuinfo", "processor\t: 0\nFeatures\t: fp asimd\nCPU implementer\t: 0x41\n"
                            "CPU part\t: 0xd4f\n\nprocessor\t: 1\nCPU implementer\t: 0x41\n"
                            "CPU part\t: 0xd4f\n");
  rlx::env::Sources src;
  src.root = r.string();
  src.run_nvidia_smi = false;
  CHECK(rlx::env::cpu_model(src) == "ARM Neoverse-V2");
  CHECK(rlx::env::capture("arm", src)["cpu_model"] == "ARM Neoverse-V2");
}

TEST_CASE("capture names an Apptainer (Singularity) container by its image folder") {
  fs::path r = fs::path(RLX_TEST_TMP) / "env-fake-apptainer";
  fs::remove_all(r);
  fs::create_directories(r / ".singularity.d");
  rlx::env::Sources src;
  src.root = r.string();
  src.run_nvidia_smi = false;
  CHECK(rlx::env::capture("a", src)["container"] == "apptainer");
}
