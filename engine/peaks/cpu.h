// cpu.h: what the CPU peak kernels need to know about the machine, and the kernels themselves.
//
// The kernels are the measuring instruments behind rlx.peaks.measure{device="cpu"}: an FMA-bound
// loop per precision in the widest vector ISA the CPU has (picked at run time, so one binary runs
// everywhere), a STREAM-style triad for DRAM bandwidth, and a read kernel for cache bandwidth.
// Each kernel returns the work it did in exact counts (FLOP or byte) so callers never re-derive
// them; a team of threads pinned one per physical core runs them between two barriers.
//
// The vector versions live in the kernel files of their architecture (cpu_kernels_x86.cpp:
// AVX-512, AVX2+FMA, VDPBF16PS, AMX; cpu_kernels_arm64.cpp: NEON, SVE; cpu_kernels_bf16_arm64.cpp:
// BFDOT, BFMMLA), each compiled only for its architecture; cpu_kernels.cpp dispatches and holds the
// scalar versions every build has (engine/platform/platform.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace rlx::peaks {

// x86-64: avx2_fma, avx512; arm64: neon (every arm64 Linux machine), sve; both: scalar.
enum class Isa { scalar, avx2_fma, avx512, neon, sve };
Isa detect_isa();               // the widest this CPU has, from platform::cpu_features (CPUID / hwcaps)
std::string isa_name(Isa isa);  // "scalar", "avx2+fma", "avx512", "neon", "sve"
// Parses the names isa_name gives; throws std::invalid_argument for anything else.
Isa parse_isa(const std::string& name);
// Whether this build and CPU run `isa`'s kernels: scalar always; a narrower ISA of the same
// architecture than the detected one too (avx2+fma on an AVX-512 CPU, neon on an SVE one).
bool isa_available(Isa isa);
// Vector width in lanes of one register for fp64 (fp32 has twice as many). SVE's is the vector
// length this process runs with (run time); 0 on a CPU without SVE.
int fp64_lanes(Isa isa);
// Whether the triad has a streaming-store version in `isa` (stores that bypass the caches):
// MOVNTPD in AVX2 and AVX-512, STNT1D in SVE; NEON and scalar have none (STNP stores pairs of
// registers only, and rlx does not use it).
bool has_streaming_stores(Isa isa);

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
// caches (no write-allocate read), where has_streaming_stores(isa). Bytes counted per element as
// STREAM does: 3 x 8 (two reads, one write), whatever the hardware moves for write-allocate.
void triad_kernel(Isa isa, double* a, const double* b, const double* c, std::size_t n, double scalar,
                  bool nontemporal);
constexpr double kTriadBytesPerElement = 24;
constexpr double kTriadFlopsPerElement = 2;

// Reads n doubles `passes` times and returns their sum (bytes read = 8 * n * passes).
double read_kernel(Isa isa, const double* data, std::size_t n, std::int64_t passes);

// ---- bf16 compute roofs ----

// How this CPU runs bf16 arithmetic, decided from its flags (x86: the words of /proc/cpuinfo's
// "flags" line, what the kernel lets the process use, which a VM may trim; arm64: the hwcaps):
//   vector "avx512_bf16": VDPBF16PS (avx512_bf16 and avx512f listed): per 512-bit instruction, 16
//     fp32 lanes each accumulate two bf16 products, 4 FLOP per lane;
//   vector "bfdot": arm64 BFDOT (hwcap bf16): per 128-bit instruction, 4 fp32 lanes each
//     accumulate two bf16 products, 4 FLOP per lane;
//   vector "emulated": no bf16 arithmetic instruction. Libraries convert bf16 to fp32 and compute
//     on the FP32 FMA units, so the FP32 FMA peak is bf16's roof (conversions only lower it);
//   matrix "amx": AMX tiles (amx_tile and amx_bf16 listed), TDPBF16PS; "bfmmla": arm64 BFMMLA
//     (hwcap bf16), a 2x4 by 4x2 bf16 product into 2x2 fp32 per 128-bit instruction, 32 FLOP;
//     "" without either.
struct Bf16Support {
  std::string vector;  // "avx512_bf16", "bfdot" or "emulated"
  std::string matrix;  // "amx", "bfmmla" or ""
};
Bf16Support bf16_support(const std::set<std::string>& cpu_flags);
// This process's, from env::cpu_flags (/proc/cpuinfo on x86, the hwcaps on arm64).
Bf16Support detect_bf16_support();

// The vector bf16 loop of this build's architecture (VDPBF16PS on x86-64, BFDOT on arm64):
// kBf16Chains independent accumulators, each step adds the dot product of two bf16 pairs to every
// fp32 lane. Needs the support above (the caller checks). Returns the sum of all lanes. FLOP done
// = bf16_dot_flops(iters) = 4 x bf16_dot_lanes() x chains x iters.
constexpr int kBf16Chains = 12;
double bf16_dot_kernel(std::int64_t iters, double start);
int bf16_dot_lanes();  // fp32 lanes of one instruction: 16 (x86-64), 4 (arm64)
double bf16_dot_flops(std::int64_t iters);
std::string bf16_dot_instruction();  // "VDPBF16PS", "BFDOT"
// Whether the vector bf16 loop runs in `isa`: VDPBF16PS needs avx512 in use, BFDOT any arm64
// vector ISA (neon, sve); scalar never.
bool bf16_dot_runs_in(const Bf16Support& sup, Isa isa);

// The matrix bf16 loop: AMX tiles on x86-64 (TDPBF16PS on four 16x16 fp32 accumulator tiles fed
// by two A and two B tiles of 16 rows x 32 bf16, loaded once: 4 x 2 x 16 x 16 x 32 FLOP a step),
// BFMMLA on arm64 (kBf16Chains 2x2 fp32 accumulators, 32 FLOP each a step). Returns a sum of
// accumulator elements (so the work cannot be elided). FLOP done = bf16_matrix_flops(iters).
double bf16_matrix_kernel(std::int64_t iters);
double bf16_matrix_flops(std::int64_t iters);
// How one step is made up, for the figure's method text.
std::string bf16_matrix_method();
// AMX: Linux hands out the tile data state only on request (arch_prctl ARCH_REQ_XCOMP_PERM),
// once per process. Returns false and says why when the kernel refuses. Always true on arm64
// (BFMMLA works on the NEON registers every process has).
bool bf16_matrix_enable(std::string* why);

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
