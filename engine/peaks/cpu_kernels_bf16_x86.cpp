// cpu_kernels_bf16_x86.cpp: the x86-64 bf16 compute-roof kernels of cpu.h: VDPBF16PS chains
// (avx512_bf16) and AMX tile products (TDPBF16PS). The whole file is x86-64 only; the flag logic
// that says which of them a CPU has is in cpu_kernels_bf16.cpp.
//
// They complete one roof policy: every precision is judged against the vector (or matrix-unit)
// peak of its own arithmetic, as fp32 is against its FMA chains. Like cpu_kernels_x86.cpp, each
// kernel is compiled for its ISA with __attribute__((target(...))) and only called when the flags
// list it, so the file builds with the default flags and the binary runs on any x86-64.
#if defined(__x86_64__)
#include <immintrin.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "peaks/cpu.h"

namespace rlx::peaks {
namespace {

#define RLX_BF16_CHAINS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)
static_assert(kBf16Chains == 12, "RLX_BF16_CHAINS writes out kBf16Chains accumulators");

constexpr std::uint16_t kBf16One = 0x3f80;   // 1.0 in bf16 (the top half of the float 1.0f)
constexpr std::uint16_t kBf16Half = 0x3f00;  // 0.5

// Each step adds 1.0 * 0.5 + 1.0 * 0.5 = 1 to every lane of every chain: exact while the sums stay
// below 2^24, and never overflowing or denormal however long a repeat runs.
__attribute__((target("avx512f,avx512bf16"))) double dpbf16_chains(std::int64_t iters, double start) {
  const __m512bh a = (__m512bh)_mm512_set1_epi16(static_cast<short>(kBf16One));
  const __m512bh b = (__m512bh)_mm512_set1_epi16(static_cast<short>(kBf16Half));
#define DECL(k) __m512 c##k = _mm512_set1_ps(float(start + k));
  RLX_BF16_CHAINS(DECL)
#undef DECL
  for (std::int64_t i = 0; i < iters; ++i) {
#define STEP(k) c##k = _mm512_dpbf16_ps(c##k, a, b);
    RLX_BF16_CHAINS(STEP)
#undef STEP
  }
  __m512 s = _mm512_setzero_ps();
#define SUM(k) s = _mm512_add_ps(s, c##k);
  RLX_BF16_CHAINS(SUM)
#undef SUM
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, s);
  double total = 0;
  for (float v : lanes) total += v;
  return total;
}

// The tile configuration of palette 1 (Intel SDM, LDTILECFG): 64 bytes.
struct alignas(64) TileConfig {
  std::uint8_t palette = 1;
  std::uint8_t start_row = 0;
  std::uint8_t reserved[14] = {};
  std::uint16_t colsb[16] = {};
  std::uint8_t rows[16] = {};
};
static_assert(sizeof(TileConfig) == 64, "LDTILECFG reads 64 bytes");

constexpr int kTileRows = 16, kTileBytesPerRow = 64;  // every tile used: 16 x 64 bytes

__attribute__((target("amx-tile,amx-bf16"))) double amx_tiles(std::int64_t iters) {
  TileConfig cfg;
  for (int t = 0; t < 8; ++t) cfg.rows[t] = kTileRows, cfg.colsb[t] = kTileBytesPerRow;
  // A and B: 1.0 and 2^-10 in every bf16 element (16 rows x 32 elements).
  alignas(64) std::uint16_t a[kTileRows * 32], b[kTileRows * 32];
  for (auto& x : a) x = kBf16One;
  for (auto& x : b) x = 0x3a80;  // 2^-10
  alignas(64) float c[kTileRows * 16];
  _tile_loadconfig(&cfg);
  _tile_zero(0);
  _tile_zero(1);
  _tile_zero(2);
  _tile_zero(3);
  _tile_loadd(4, a, kTileBytesPerRow);
  _tile_loadd(5, a, kTileBytesPerRow);
  _tile_loadd(6, b, kTileBytesPerRow);
  _tile_loadd(7, b, kTileBytesPerRow);
  // Four independent accumulator tiles, so no product waits for the previous one's result (one C
  // tile alone would serialise on TDPBF16PS's latency).
  for (std::int64_t i = 0; i < iters; ++i) {
    _tile_dpbf16ps(0, 4, 6);
    _tile_dpbf16ps(1, 4, 7);
    _tile_dpbf16ps(2, 5, 6);
    _tile_dpbf16ps(3, 5, 7);
  }
  _tile_stored(0, c, kTileBytesPerRow);
  _tile_release();
  double total = 0;
  for (float v : c) total += v;
  return total;
}

}  // namespace

double bf16_dot_kernel(std::int64_t iters, double start) {
  return dpbf16_chains(iters, start);
}

// 16 fp32 lanes per 512-bit register, each adding two products: 2 multiplies + 2 adds.
int bf16_dot_lanes() {
  return 16;
}

std::string bf16_dot_instruction() {
  return "VDPBF16PS";
}

bool bf16_matrix_enable(std::string* why) {
  // arch/x86/include/uapi/asm/prctl.h and the XSAVE feature number of the tile data.
  constexpr long kArchReqXcompPerm = 0x1023, kXfeatureXtiledata = 18;
  static const int result = [] {
    return syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) == 0 ? 0 : errno;
  }();
  if (result != 0 && why) {
    *why = std::string("Linux refused the AMX tile state (arch_prctl ARCH_REQ_XCOMP_PERM: ") +
           std::strerror(result) + ")";
  }
  return result == 0;
}

double bf16_matrix_kernel(std::int64_t iters) {
  return amx_tiles(iters);
}

double bf16_matrix_flops(std::int64_t iters) {
  // Per TDPBF16PS: C (16 x 16 fp32) += A (16 x 32 bf16) B (32 x 16 bf16): 2 x 16 x 16 x 32 FLOP.
  return 4.0 * 2 * 16 * 16 * 32 * double(iters);
}

std::string bf16_matrix_method() {
  return "AMX TDPBF16PS on 4 accumulator tiles (16x16 fp32 += 16x32 by 32x16 bf16, 16384 FLOP each)";
}

}  // namespace rlx::peaks
#endif  // __x86_64__
