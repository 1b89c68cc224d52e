// cuda_l2.cpp: see cuda_l2.h. The driver API is reached through dlopen("libcuda.so.1") with the
// few types and calls it needs declared here (the driver's stable C ABI), as the CUPTI backend and
// its GPU unit test do, so nothing here needs the CUDA headers or a GPU to build.
#include "peaks/cuda_l2.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rlx::peaks {
namespace {

const char* kPtx = R"(
.version 7.0
.target sm_70
.address_size 64
.visible .entry l2_read(.param .u64 buf, .param .u32 n_vec, .param .u32 passes, .param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<32>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [buf];
  cvta.to.global.u64 %rd1, %rd1;
  ld.param.u32 %r1, [n_vec];
  ld.param.u32 %r2, [passes];
  mov.u32 %r3, %tid.x;
  mov.u32 %r4, %ntid.x;
  mov.u32 %r5, %ctaid.x;
  mov.u32 %r6, %nctaid.x;
  mad.lo.u32 %r7, %r5, %r4, %r3;
  mul.lo.u32 %r8, %r6, %r4;
  shl.b32 %r9, %r8, 2;
  mul.wide.u32 %rd2, %r8, 16;
  mul.wide.u32 %rd3, %r7, 16;
  add.u64 %rd3, %rd1, %rd3;
  mov.u32 %r10, 0;
  mov.u32 %r11, 0;
PASS:
  mov.u32 %r12, %r7;
  mov.u64 %rd4, %rd3;
LOOP:
  ld.global.cg.v4.u32 {%r13, %r14, %r15, %r16}, [%rd4];
  add.u64 %rd5, %rd4, %rd2;
  ld.global.cg.v4.u32 {%r17, %r18, %r19, %r20}, [%rd5];
  add.u64 %rd6, %rd5, %rd2;
  ld.global.cg.v4.u32 {%r21, %r22, %r23, %r24}, [%rd6];
  add.u64 %rd7, %rd6, %rd2;
  ld.global.cg.v4.u32 {%r25, %r26, %r27, %r28}, [%rd7];
  xor.b32 %r13, %r13, %r14;
  xor.b32 %r15, %r15, %r16;
  xor.b32 %r17, %r17, %r18;
  xor.b32 %r19, %r19, %r20;
  xor.b32 %r21, %r21, %r22;
  xor.b32 %r23, %r23, %r24;
  xor.b32 %r25, %r25, %r26;
  xor.b32 %r27, %r27, %r28;
  xor.b32 %r13, %r13, %r15;
  xor.b32 %r17, %r17, %r19;
  xor.b32 %r21, %r21, %r23;
  xor.b32 %r25, %r25, %r27;
  xor.b32 %r13, %r13, %r17;
  xor.b32 %r21, %r21, %r25;
  xor.b32 %r13, %r13, %r21;
  xor.b32 %r10, %r10, %r13;
  add.u64 %rd4, %rd7, %rd2;
  add.u32 %r12, %r12, %r9;
  setp.lt.u32 %p1, %r12, %r1;
  @%p1 bra LOOP;
  add.u32 %r11, %r11, 1;
  setp.lt.u32 %p2, %r11, %r2;
  @%p2 bra PASS;
  setp.eq.u32 %p3, %r10, 0;
  @%p3 bra DONE;
  ld.param.u64 %rd8, [out];
  cvta.to.global.u64 %rd8, %rd8;
  st.global.u32 [%rd8], %r10;
DONE:
  ret;
}
)";

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using Handle = void*;  // CUcontext, CUmodule, CUfunction, CUevent, CUstream

// The driver calls used, resolved once from libcuda.so.1 (the _v2 names are what cuda.h maps the
// plain ones to since CUDA 4-11).
struct Driver {
  void* lib = nullptr;
  CUresult (*init)(unsigned) = nullptr;
  CUresult (*device_get)(CUdevice*, int) = nullptr;
  CUresult (*retain)(Handle*, CUdevice) = nullptr;
  CUresult (*release)(CUdevice) = nullptr;
  CUresult (*push)(Handle) = nullptr;
  CUresult (*pop)(Handle*) = nullptr;
  CUresult (*load)(Handle*, const void*) = nullptr;
  CUresult (*unload)(Handle) = nullptr;
  CUresult (*get_function)(Handle*, Handle, const char*) = nullptr;
  CUresult (*alloc)(CUdeviceptr*, size_t) = nullptr;
  CUresult (*free)(CUdeviceptr) = nullptr;
  CUresult (*memset8)(CUdeviceptr, unsigned char, size_t) = nullptr;
  CUresult (*event_create)(Handle*, unsigned) = nullptr;
  CUresult (*event_destroy)(Handle) = nullptr;
  CUresult (*event_record)(Handle, Handle) = nullptr;
  CUresult (*event_sync)(Handle) = nullptr;
  CUresult (*event_elapsed)(float*, Handle, Handle) = nullptr;
  CUresult (*launch)(Handle, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, Handle,
                     void**, void**) = nullptr;
  CUresult (*error_string)(CUresult, const char**) = nullptr;

  Driver() {
    lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) throw std::runtime_error("the NVIDIA driver library libcuda.so.1 could not be opened");
    sym(init, "cuInit");
    sym(device_get, "cuDeviceGet");
    sym(retain, "cuDevicePrimaryCtxRetain");
    sym(release, "cuDevicePrimaryCtxRelease_v2");
    sym(push, "cuCtxPushCurrent_v2");
    sym(pop, "cuCtxPopCurrent_v2");
    sym(load, "cuModuleLoadData");
    sym(unload, "cuModuleUnload");
    sym(get_function, "cuModuleGetFunction");
    sym(alloc, "cuMemAlloc_v2");
    sym(free, "cuMemFree_v2");
    sym(memset8, "cuMemsetD8_v2");
    sym(event_create, "cuEventCreate");
    sym(event_destroy, "cuEventDestroy_v2");
    sym(event_record, "cuEventRecord");
    sym(event_sync, "cuEventSynchronize");
    sym(event_elapsed, "cuEventElapsedTime");
    sym(launch, "cuLaunchKernel");
    sym(error_string, "cuGetErrorString");
  }
  ~Driver() { dlclose(lib); }
  Driver(const Driver&) = delete;
  Driver& operator=(const Driver&) = delete;

  template <typename F>
  void sym(F& f, const char* name) {
    f = reinterpret_cast<F>(dlsym(lib, name));
    if (!f) throw std::runtime_error(fmt::format("the NVIDIA driver has no {}", name));
  }
  void check(CUresult r, const char* call) const {
    if (r == 0) return;
    const char* text = nullptr;
    if (error_string(r, &text) != 0 || text == nullptr) text = "unknown error";
    throw std::runtime_error(fmt::format("{} failed: {} ({})", call, text, r));
  }
};

// The device's primary context made current for this scope (the one LibTorch's runtime uses), and
// everything allocated in it freed on the way out.
class Session {
 public:
  Session(const Driver& d, int device_index) : d_(d) {
    d_.check(d_.init(0), "cuInit");
    d_.check(d_.device_get(&dev_, device_index), "cuDeviceGet");
    d_.check(d_.retain(&ctx_, dev_), "cuDevicePrimaryCtxRetain");
    if (d_.push(ctx_) != 0) {
      d_.release(dev_);
      throw std::runtime_error("cuCtxPushCurrent failed");
    }
  }
  ~Session() {
    for (Handle e : events_) d_.event_destroy(e);
    for (CUdeviceptr p : buffers_) d_.free(p);
    if (module_) d_.unload(module_);
    Handle popped = nullptr;
    d_.pop(&popped);
    d_.release(dev_);
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  Handle kernel() {
    d_.check(d_.load(&module_, kPtx), "cuModuleLoadData (the driver compiling the L2 read kernel's PTX)");
    Handle fn = nullptr;
    d_.check(d_.get_function(&fn, module_, "l2_read"), "cuModuleGetFunction");
    return fn;
  }
  CUdeviceptr zeroed(size_t bytes) {
    CUdeviceptr p = 0;
    d_.check(d_.alloc(&p, bytes), "cuMemAlloc");
    buffers_.push_back(p);
    d_.check(d_.memset8(p, 0, bytes), "cuMemsetD8");
    return p;
  }
  Handle event() {
    Handle e = nullptr;
    d_.check(d_.event_create(&e, 0), "cuEventCreate");  // default flags: timing enabled
    events_.push_back(e);
    return e;
  }

 private:
  const Driver& d_;
  CUdevice dev_ = 0;
  Handle ctx_ = nullptr;
  Handle module_ = nullptr;
  std::vector<CUdeviceptr> buffers_;
  std::vector<Handle> events_;
};

}  // namespace

const char* l2_read_ptx() {
  return kPtx;
}

L2Plan plan_l2_read(std::int64_t l2_bytes, int sm_count) {
  L2Plan p;
  const std::int64_t stride_bytes = 4 * 16 * std::int64_t(p.threads);  // one block's share of a loop step
  const std::int64_t target = l2_bytes / 4;
  if (sm_count < 1 || target < stride_bytes)
    throw std::invalid_argument(
        fmt::format("an L2 of {} bytes on {} SMs is too small for the L2 read kernel", l2_bytes, sm_count));
  p.blocks = int(std::min<std::int64_t>(std::int64_t(sm_count) * 8, target / stride_bytes));
  const std::int64_t grid_stride = stride_bytes * p.blocks;
  p.working_set_bytes = target / grid_stride * grid_stride;
  p.vectors = std::uint32_t(p.working_set_bytes / 16);
  return p;
}

L2Timing time_l2_read(int device_index, std::int64_t l2_bytes, int sm_count, int runs, double target_s) {
  L2Timing t;
  t.plan = plan_l2_read(l2_bytes, sm_count);
  Driver d;
  Session s(d, device_index);
  Handle fn = s.kernel();
  CUdeviceptr buf = s.zeroed(size_t(t.plan.working_set_bytes)), out = s.zeroed(4);
  Handle start = s.event(), stop = s.event();
  std::uint32_t vectors = t.plan.vectors, passes = 8;
  auto timed_launch = [&] {
    void* params[] = {&buf, &vectors, &passes, &out};
    d.check(d.event_record(start, nullptr), "cuEventRecord");
    d.check(d.launch(fn, unsigned(t.plan.blocks), 1, 1, unsigned(t.plan.threads), 1, 1, 0, nullptr, params,
                     nullptr),
            "cuLaunchKernel (the L2 read kernel)");
    d.check(d.event_record(stop, nullptr), "cuEventRecord");
    d.check(d.event_sync(stop), "cuEventSynchronize");
    float ms = 0;
    d.check(d.event_elapsed(&ms, start, stop), "cuEventElapsedTime");
    return double(ms) / 1e3;
  };
  timed_launch();  // brings the buffer into L2
  const double eight = std::max(timed_launch(), 1e-6);
  passes = std::uint32_t(std::clamp(std::round(target_s / eight * 8), 8.0, double(1 << 24)));
  t.passes = passes;
  t.bytes_per_launch = double(t.plan.vectors) * 16.0 * passes;
  for (int r = 0; r < runs; ++r) t.seconds.push_back(timed_launch());
  return t;
}

}  // namespace rlx::peaks
