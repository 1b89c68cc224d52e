// cpu.h: what the CPU peak kernels need to know about the machine, and the kernels themselves.
//
// The kernels are the measuring instruments behind rlx.peaks.measure{device="cpu"}: an FMA-bound
// loop per precision in the widest vector ISA the CPU has (picked at run time, so one binary runs
// everywhere), a STREAM-style triad for DRAM bandwidth, and a read kernel for cache bandwidth.
// Each kernel returns the work it did in exact counts (FLOP or byte) so callers never re-derive
// them; a team of threads pinned one per physical core runs them between two barriers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace rlx::peaks {

enum class Isa { scalar, avx2_fma, avx512 };
Isa detect_isa();  // __builtin_cpu_supports at run time
std::string isa_name(Isa isa);  // "scalar", "avx2+fma", "avx512"
// Parses "scalar" / "avx2+fma" / "avx512"; throws std::invalid_argument for anything else.
Isa parse_isa(const std::string& name);
// Vector width in lanes of one register for fp64 (fp32 has twice as many).
int fp64_lanes(Isa isa);

struct CacheLevel {
  int level = 0;            // 1, 2, 3
  std::size_t bytes = 0;    // size of one instance
  int shared_by_cpus = 1;   // logical CPUs sharing one instance
};
// Data and unified caches of cpu0 from /sys/devices/system/cpu/cpu0/cache, else from glibc's
// sysconf (CPUID); empty when neither knows.
std::vector<CacheLevel> cpu_caches();
// Parses a /sys cache "size" string such as "32K", "1024K", "33M" into bytes.
std::size_t parse_cache_size(const std::string& text);
// Counts CPUs in a /sys cpu list such as "0-3,8,10-11".
int count_cpu_list(const std::string& text);

// The CPUs this process may run on, one per physical core (hyperthread siblings dropped).
std::vector<int> one_cpu_per_core();
std::string cpu_model_name();

// ---- kernels (single thread; callers run them on a team) ----

// FMA-bound loop: `accumulators` independent chains of acc = acc * mul + add, iterated `iters`
// times, in `isa`. Returns the sum of all lanes of all chains (so the work cannot be elided).
// FLOP done = fma_flops(isa, fp64, iters).
double fma_kernel(Isa isa, bool fp64, std::int64_t iters, double mul, double add, double start);
double fma_flops(Isa isa, bool fp64, std::int64_t iters);
// Independent chains per kernel: enough to cover FMA latency (4-5 cycles) on two FMA ports.
constexpr int kFmaChains = 12;

// a[i] = b[i] + scalar * c[i] for i in [0, n). nontemporal: streaming stores that bypass the
// caches (no write-allocate read), available with avx512 and avx2. Bytes counted per element as
// STREAM does: 3 x 8 (two reads, one write), whatever the hardware moves for write-allocate.
void triad_kernel(Isa isa, double* a, const double* b, const double* c, std::size_t n, double scalar,
                  bool nontemporal);
constexpr double kTriadBytesPerElement = 24;
constexpr double kTriadFlopsPerElement = 2;

// Reads n doubles `passes` times and returns their sum (bytes read = 8 * n * passes).
double read_kernel(Isa isa, const double* data, std::size_t n, std::int64_t passes);

// ---- bf16 compute roofs ----

// How this CPU runs bf16 arithmetic, decided from its flags (the words of /proc/cpuinfo's "flags"
// line: what the kernel lets the process use, which a VM may trim):
//   vector "avx512_bf16": VDPBF16PS (avx512_bf16 and avx512f listed): per 512-bit instruction, 16
//     fp32 lanes each accumulate two bf16 products, 4 FLOP per lane;
//   vector "emulated": no bf16 arithmetic instruction. Libraries convert bf16 to fp32 and compute
//     on the FP32 FMA units, so the FP32 FMA peak is bf16's roof (conversions only lower it);
//   matrix "amx": AMX tiles (amx_tile and amx_bf16 listed), TDPBF16PS; "" without them.
struct Bf16Support {
  std::string vector;  // "avx512_bf16" or "emulated"
  std::string matrix;  // "amx" or ""
};
Bf16Support bf16_support(const std::set<std::string>& cpu_flags);
// This process's, from /proc/cpuinfo.
Bf16Support detect_bf16_support();

// VDPBF16PS-bound loop: kBf16Chains independent 512-bit accumulators, each step adds the dot
// product of two bf16 pairs to every fp32 lane. Needs avx512_bf16 (the caller checks). Returns
// the sum of all lanes. FLOP done = bf16_dot_flops(iters) = 4 x 16 lanes x chains x iters.
constexpr int kBf16Chains = 12;
double bf16_dot_kernel(std::int64_t iters, double start);
double bf16_dot_flops(std::int64_t iters);

// AMX: Linux hands out the tile data state only on request (arch_prctl ARCH_REQ_XCOMP_PERM),
// once per process. Returns false and says why when the kernel refuses or the build lacks it.
bool amx_enable(std::string* why);
// TDPBF16PS-bound loop on four 16x16 fp32 accumulator tiles fed by two A and two B tiles
// (16 rows x 32 bf16), loaded once. Needs amx_enable() first. FLOP done = amx_bf16_flops(iters) =
// 4 tiles x 2 x 16 x 16 x 32 x iters. Returns the sum of the first accumulator tile.
double amx_bf16_kernel(std::int64_t iters);
double amx_bf16_flops(std::int64_t iters);

// ---- thread team ----

// Timings of a team's repeats: wall seconds (between the two barriers, so as long as the slowest
// thread) and, per repeat, the largest per-thread CPU time (CLOCK_THREAD_CPUTIME_ID): the time the
// threads really ran, which excludes the slices other processes took on a shared machine.
struct TeamTiming {
  std::vector<double> wall_seconds;
  std::vector<double> cpu_seconds;
};

// Runs body(thread_index) on every cpu of `cpus` (a thread pinned to each), `repeats` times.
// setup(thread_index) runs once per thread before the first repeat, on its own cpu (first touch
// puts each thread's pages on its NUMA node). Throws util::Interrupted after Ctrl-C (checked
// between repeats) and rethrows the first exception of a body. An empty `cpus` runs one unpinned
// thread. The caller's own thread and affinity are never used or changed.
TeamTiming run_team(const std::vector<int>& cpus, int repeats, const std::function<void(int)>& setup,
                    const std::function<void(int)>& body);

// A 64-byte aligned array of doubles (AVX-512 loads and streaming stores need the alignment).
class AlignedDoubles {
 public:
  explicit AlignedDoubles(std::size_t n);
  ~AlignedDoubles();
  AlignedDoubles(const AlignedDoubles&) = delete;
  AlignedDoubles& operator=(const AlignedDoubles&) = delete;
  double* data() { return p_; }
  const double* data() const { return p_; }
  std::size_t size() const { return n_; }

 private:
  double* p_ = nullptr;
  std::size_t n_ = 0;
};

}  // namespace rlx::peaks
