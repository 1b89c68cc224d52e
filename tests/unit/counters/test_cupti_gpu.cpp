// test_cupti_gpu.cpp: the CUPTI target half on a real GPU, with a kernel of known work: every
// thread runs N dependent FP32 FMAs, so ffma = threads x N exactly and flops_fp32 = 2 x that. The
// kernel is PTX text JIT-compiled by the driver (no nvcc at build time) and the driver is loaded
// with dlopen like the backend does. Without a driver (the CPU build machines) the test only says
// so; with insufficient profiling privileges it reports the reason and stops.
#include <catch2/catch.hpp>
#include <dlfcn.h>

#include <string>

#include "counters/collector.h"
#include "counters/cupti_backend.h"

namespace {

const char* kPtx = R"(
.version 7.0
.target sm_70
.address_size 64
.visible .entry fma_loop(.param .u64 out, .param .u32 n)
{
  .reg .f32 a, b, c;
  .reg .u32 i, cnt, tid, ntid, ctaid, gid;
  .reg .u64 p, off;
  .reg .pred q;
  ld.param.u64 p, [out];
  ld.param.u32 cnt, [n];
  mov.u32 tid, %tid.x;
  mov.u32 ntid, %ntid.x;
  mov.u32 ctaid, %ctaid.x;
  mad.lo.u32 gid, ctaid, ntid, tid;
  cvt.rn.f32.u32 a, gid;
  mov.f32 b, 0f3F7FFFFF;
  mov.f32 c, 0f3F800000;
  mov.u32 i, 0;
LOOP:
  fma.rn.f32 c, c, b, a;
  add.u32 i, i, 1;
  setp.lt.u32 q, i, cnt;
  @q bra LOOP;
  cvta.to.global.u64 p, p;
  mul.wide.u32 off, gid, 4;
  add.u64 p, p, off;
  st.global.f32 [p], c;
  ret;
}
)";

struct Driver {
  using R = int;
  void* h = nullptr;
  R (*init)(unsigned) = nullptr;
  R (*device_get)(int*, int) = nullptr;
  R (*retain)(void**, int) = nullptr;
  R (*set_current)(void*) = nullptr;
  R (*load)(void**, const void*) = nullptr;
  R (*get_function)(void**, void*, const char*) = nullptr;
  R (*mem_alloc)(unsigned long long*, size_t) = nullptr;
  R (*mem_free)(unsigned long long) = nullptr;
  R (*launch)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*, void**, void**) = nullptr;
  R (*sync)() = nullptr;
  template <typename F>
  void sym(F& f, const char* name) {
    f = reinterpret_cast<F>(dlsym(h, name));
    REQUIRE(f != nullptr);
  }
};

}  // namespace

TEST_CASE("cupti on a GPU: FP32 FLOPs of a kernel of known work") {
  Driver d;
  d.h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (!d.h || !rlx::counters::cupti_compiled()) {
    WARN("no NVIDIA driver or no CUPTI: the GPU half is not tested here");
    return;
  }
  d.sym(d.init, "cuInit");
  d.sym(d.device_get, "cuDeviceGet");
  d.sym(d.retain, "cuDevicePrimaryCtxRetain");
  d.sym(d.set_current, "cuCtxSetCurrent");
  d.sym(d.load, "cuModuleLoadData");
  d.sym(d.get_function, "cuModuleGetFunction");
  d.sym(d.mem_alloc, "cuMemAlloc_v2");
  d.sym(d.mem_free, "cuMemFree_v2");
  d.sym(d.launch, "cuLaunchKernel");
  d.sym(d.sync, "cuCtxSynchronize");
  if (d.init(0) != 0) {
    WARN("cuInit failed: no usable GPU");
    return;
  }
  int dev = 0;
  void* ctx = nullptr;
  REQUIRE(d.device_get(&dev, 0) == 0);
  REQUIRE(d.retain(&ctx, dev) == 0);
  REQUIRE(d.set_current(ctx) == 0);
  void* mod = nullptr;
  void* fn = nullptr;
  REQUIRE(d.load(&mod, kPtx) == 0);
  REQUIRE(d.get_function(&fn, mod, "fma_loop") == 0);
  const unsigned blocks = 64, threads = 128, n = 1000;
  unsigned long long out = 0;
  REQUIRE(d.mem_alloc(&out, blocks * threads * sizeof(float)) == 0);
  auto run = [&] {
    unsigned cnt = n;
    void* args[] = {&out, &cnt};
    REQUIRE(d.launch(fn, blocks, 1, 1, threads, 1, 1, 0, nullptr, args, nullptr) == 0);
    REQUIRE(d.sync() == 0);
  };
  run();  // warm-up: JIT and module load outside the measured section

  auto c = rlx::counters::make_collector("cuda:0", {"time", "dram", "fp32"});
  const int iters = 4;
  c->on_measured_begin(iters);
  for (int i = 0; i < iters; ++i) {
    c->on_iteration_begin(i);
    run();
    c->on_iteration_end(i);
  }
  c->on_measured_end();
  auto r = c->result();
  d.mem_free(out);
  INFO(r.dump(2));
  if (r["available"] == false && r.value("reason", std::string()).find("PRIVILEGES") != std::string::npos) {
    WARN("GPU counters not permitted here: " << r["reason"].get<std::string>());
    return;
  }
  REQUIRE(r["available"] == true);
  const double ffma = double(blocks) * threads * n;
  CHECK(r["values"]["smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"].get<double>() == ffma);
  CHECK(r["derived"]["flops_fp32"].get<double>() == 2 * ffma);
  CHECK(r["derived"]["seconds"].get<double>() > 0);
  CHECK(r["derived"]["dram_bytes"].get<double>() >= 0);
}
