// cupti_backend.cpp: CUPTI range profiling (see cupti_backend.h). The whole metric set goes into
// one configuration; CUPTI splits it into passes, and with user replay each pass is one measured
// training iteration (Start, PushRange "step", the iteration, PopRange, Stop) until all passes are
// submitted: nothing is replayed and kernels run as in an unprofiled step, which assumes
// consecutive steps after warm-up do the same work. Failures never escape the training hooks:
// they end collection and become `reason`.
#include "counters/cupti_backend.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <stdexcept>

#include "counters/cuda_driver.h"
#include "util/coded_error.h"
#include "counters/metrics.h"

#ifdef RLX_HAVE_CUPTI
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>
#endif

namespace rlx::counters {

std::vector<std::string> cuda_metrics_for(const std::vector<std::string>& groups) {
  auto known = cuda_groups();
  for (const auto& g : groups) {
    if (std::find(known.begin(), known.end(), g) == known.end()) {
      throw std::invalid_argument(fmt::format("unknown cuda counter group '{}' (valid: {})", g, fmt::join(known, ", ")));
    }
  }
  std::vector<std::string> out;
  for (const auto& m : cuda_metrics()) {
    if (groups.empty() || std::find(groups.begin(), groups.end(), m.group) != groups.end()) out.push_back(m.name);
  }
  return out;
}

namespace {
// Used only by the CUPTI backend: a build without CUPTI (no CUDA toolkit) keeps it unused.
[[maybe_unused]] std::string group_of(const std::string& metric) {
  for (const auto& m : cuda_metrics()) {
    if (m.name == metric) return m.group;
  }
  return "other";
}

class Unavailable : public Collector {
 public:
  Unavailable(std::string device, std::string reason) : device_(std::move(device)), reason_(std::move(reason)) {}
  nlohmann::json result() const override {
    return {{"source", "cupti"}, {"device", device_}, {"available", false}, {"reason", reason_},
            {"values", nlohmann::json::object()}, {"units", nlohmann::json::object()},
            {"unsupported", nlohmann::json::object()}, {"derived", nlohmann::json::object()}};
  }

 private:
  std::string device_, reason_;
};
}  // namespace

#ifndef RLX_HAVE_CUPTI

bool cupti_compiled() { return false; }
nlohmann::json cupti_host_plan(const std::string&, const std::vector<std::string>&) {
  throw std::runtime_error("CUPTI support is not compiled in (rebuild with the CUDA toolkit installed)");
}
nlohmann::json cupti_device_info(int) {
  return {{"available", false}, {"reason", "CUPTI support is not compiled in (rebuild with the CUDA toolkit installed)"}};
}
std::unique_ptr<Collector> make_cupti_collector(int index, const std::vector<std::string>&, bool) {
  return std::make_unique<Unavailable>(fmt::format("cuda:{}", index),
                                       "CUPTI support is not compiled in (rebuild with the CUDA toolkit installed)");
}

#else

bool cupti_compiled() { return true; }

namespace {

// A CUPTI parameter struct with every field zero and structSize set, as the API requires.
template <typename T>
T zeroed(size_t struct_size) {
  T p;
  std::memset(&p, 0, sizeof p);
  p.structSize = struct_size;
  return p;
}

std::string cupti_error(CUptiResult r) {
  const char* s = nullptr;
  cuptiGetResultString(r, &s);
  std::string msg = s ? s : fmt::format("CUPTI error {}", static_cast<int>(r));
  if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES || r == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES) {
    msg += " (ERR_NVGPUCTRPERM: GPU counters need root, CAP_PERFMON/CAP_SYS_ADMIN, or the driver option "
           "NVreg_RestrictProfilingToAdminUsers=0)";
  }
  return msg;
}

void check(CUptiResult r, const char* what) {
  if (r != CUPTI_SUCCESS) throw std::runtime_error(fmt::format("{} failed: {}", what, cupti_error(r)));
}

// A Profiler Host object for one chip; each configuration needs a fresh one because metrics
// added to a config cannot be removed.
class Host {
 public:
  Host(const std::string& chip, const std::vector<uint8_t>* availability) {
    auto p = zeroed<CUpti_Profiler_Host_Initialize_Params>(CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
    p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    p.pChipName = chip.c_str();
    p.pCounterAvailabilityImage = availability && !availability->empty() ? availability->data() : nullptr;
    CUptiResult r = cuptiProfilerHostInitialize(&p);
    if (r != CUPTI_SUCCESS) {
      throw util::CodedError(fmt::format("CUPTI host API does not know chip '{}': {}", chip, cupti_error(r)),
                             "unknown_chip");
    }
    obj_ = p.pHostObject;
  }
  ~Host() {
    auto p = zeroed<CUpti_Profiler_Host_Deinitialize_Params>(CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
    p.pHostObject = obj_;
    cuptiProfilerHostDeinitialize(&p);
  }
  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;
  CUpti_Profiler_Host_Object* obj() const { return obj_; }

  // "" when the chip knows the metric, else the reason; unit receives the dimension unit.
  std::string validate(const std::string& name, std::string* unit = nullptr) const {
    auto p = zeroed<CUpti_Profiler_Host_GetMetricProperties_Params>(CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE);
    p.pHostObject = obj_;
    p.pMetricName = name.c_str();
    CUptiResult r = cuptiProfilerHostGetMetricProperties(&p);
    if (r != CUPTI_SUCCESS) return "not a metric on this chip (" + cupti_error(r) + ")";
    if (unit) *unit = p.pDimUnit ? p.pDimUnit : "";
    return "";
  }

  std::vector<uint8_t> config(const std::vector<std::string>& metrics) const {
    std::vector<const char*> names;
    for (const auto& m : metrics) names.push_back(m.c_str());
    auto a = zeroed<CUpti_Profiler_Host_ConfigAddMetrics_Params>(CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
    a.pHostObject = obj_;
    a.ppMetricNames = names.data();
    a.numMetrics = names.size();
    check(cuptiProfilerHostConfigAddMetrics(&a), "cuptiProfilerHostConfigAddMetrics");
    auto s = zeroed<CUpti_Profiler_Host_GetConfigImageSize_Params>(CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
    s.pHostObject = obj_;
    check(cuptiProfilerHostGetConfigImageSize(&s), "cuptiProfilerHostGetConfigImageSize");
    std::vector<uint8_t> img(s.configImageSize);
    auto g = zeroed<CUpti_Profiler_Host_GetConfigImage_Params>(CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
    g.pHostObject = obj_;
    g.configImageSize = img.size();
    g.pConfigImage = img.data();
    check(cuptiProfilerHostGetConfigImage(&g), "cuptiProfilerHostGetConfigImage");
    return img;
  }

 private:
  CUpti_Profiler_Host_Object* obj_ = nullptr;
};

size_t num_passes(std::vector<uint8_t>& img) {
  auto p = zeroed<CUpti_Profiler_Host_GetNumOfPasses_Params>(CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
  p.configImageSize = img.size();
  p.pConfigImage = img.data();
  check(cuptiProfilerHostGetNumOfPasses(&p), "cuptiProfilerHostGetNumOfPasses");
  return p.numOfPasses;
}

size_t passes_for(const std::string& chip, const std::vector<uint8_t>* avail, const std::vector<std::string>& m) {
  if (m.empty()) return 0;
  Host h(chip, avail);
  auto img = h.config(m);
  return num_passes(img);
}

// Pass count, or SIZE_MAX when the chip refuses the metrics in one configuration (on GH100 the
// PCIe metrics combine with gpu__time_duration only: CUPTI_ERROR_NOT_SUPPORTED).
size_t passes_or_max(const std::string& chip, const std::vector<uint8_t>* avail, const std::vector<std::string>& m) {
  try {
    return passes_for(chip, avail, m);
  } catch (const std::runtime_error&) {
    return SIZE_MAX;
  }
}

// Splits valid metrics into those that fit one configuration (whole groups, in order) and the
// groups that do not combine with them, with the reason.
void combine(const std::string& chip, const std::vector<uint8_t>* avail, const std::vector<std::string>& valid,
             std::vector<std::string>& accepted, std::map<std::string, std::string>& rejected) {
  std::vector<std::string> order;
  for (const auto& m : valid) {
    auto g = group_of(m);
    if (std::find(order.begin(), order.end(), g) == order.end()) order.push_back(g);
  }
  for (const auto& g : order) {
    std::vector<std::string> trial = accepted;
    for (const auto& m : valid) {
      if (group_of(m) == g) trial.push_back(m);
    }
    if (passes_or_max(chip, avail, trial) != SIZE_MAX) {
      accepted = trial;
      continue;
    }
    for (const auto& m : valid) {
      if (group_of(m) == g) {
        rejected[m] = fmt::format("cannot share a configuration with the other groups on {} (CUPTI_ERROR_NOT_SUPPORTED): "
                                  "collect groups = {{\"{}\"}} in a run of its own",
                                  chip, g);
      }
    }
  }
}

// Valid names (in order) and the reasons for the others.
void validate_all(const Host& h, const std::vector<std::string>& metrics, std::vector<std::string>& valid,
                  std::map<std::string, std::string>& invalid, std::map<std::string, std::string>* units) {
  bool has_src_fp16 = h.validate("sm__ops_path_tensor_src_fp16.sum").empty();
  for (const auto& m : metrics) {
    std::string unit;
    std::string why = h.validate(m, &unit);
    if (why.empty() && has_src_fp16 && m.rfind("sm__ops_path_tensor_src_fp16_dst_", 0) == 0) {
      why = "counted by sm__ops_path_tensor_src_fp16.sum on this chip";
    }
    if (why.empty()) {
      valid.push_back(m);
      if (units) (*units)[m] = unit;
    } else {
      invalid[m] = why;
    }
  }
}

// Greedy one-pass groups: whole metric groups are merged while the union needs one pass; a group
// that alone needs more is split metric by metric. A metric that alone needs several passes
// forms its own group.
void plan_groups(const std::string& chip, const std::vector<uint8_t>* avail, const std::vector<std::string>& valid,
                 std::vector<std::vector<std::string>>& groups, std::vector<size_t>& group_passes) {
  std::vector<std::vector<std::string>> by_group;
  std::vector<std::string> order;
  for (const auto& m : valid) {
    auto g = group_of(m);
    auto it = std::find(order.begin(), order.end(), g);
    if (it == order.end()) {
      order.push_back(g);
      by_group.push_back({m});
    } else {
      by_group[it - order.begin()].push_back(m);
    }
  }
  std::vector<std::string> cur;
  auto flush = [&] {
    if (!cur.empty()) {
      groups.push_back(cur);
      group_passes.push_back(passes_or_max(chip, avail, cur));
      cur.clear();
    }
  };
  for (const auto& g : by_group) {
    std::vector<std::string> trial = cur;
    trial.insert(trial.end(), g.begin(), g.end());
    if (passes_or_max(chip, avail, trial) <= 1) {
      cur = trial;
      continue;
    }
    flush();
    if (passes_or_max(chip, avail, g) <= 1) {
      cur = g;
      continue;
    }
    for (const auto& m : g) {
      std::vector<std::string> t = cur;
      t.push_back(m);
      if (cur.empty() || passes_or_max(chip, avail, t) <= 1) {
        cur = t;
      } else {
        flush();
        cur = {m};
      }
    }
  }
  flush();
}

}  // namespace

nlohmann::json cupti_host_plan(const std::string& chip, const std::vector<std::string>& metrics) {
  std::vector<std::string> valid;
  std::map<std::string, std::string> invalid;
  std::map<std::string, std::string> units;
  {
    Host h(chip, nullptr);
    validate_all(h, metrics, valid, invalid, &units);
  }
  std::vector<std::vector<std::string>> groups;
  std::vector<size_t> group_passes;
  plan_groups(chip, nullptr, valid, groups, group_passes);
  std::vector<std::string> together;
  std::map<std::string, std::string> separate;
  combine(chip, nullptr, valid, together, separate);
  nlohmann::json j;
  j["chip"] = chip;
  j["valid"] = valid;
  j["invalid"] = invalid.empty() ? nlohmann::json::object() : nlohmann::json(invalid);
  j["units"] = units.empty() ? nlohmann::json::object() : nlohmann::json(units);
  // The default collection: `together` in one configuration of `passes` passes; `separate`
  // need a run of their own.
  j["together"] = together;
  j["separate"] = separate.empty() ? nlohmann::json::object() : nlohmann::json(separate);
  j["passes"] = passes_for(chip, nullptr, together);
  j["groups"] = groups;
  j["group_passes"] = group_passes;
  return j;
}

namespace {

// Driver and CUPTI checks that need no profiling session: device present, supported by the
// profiler (not vGPU without profiling, not confidential compute, ...), and its chip name.
struct DeviceCheck {
  bool ok = false;
  std::string reason, name, chip;
  CudaDriver::CUdevice dev = 0;
};

DeviceCheck check_device(int index) {
  DeviceCheck c;
  const CudaDriver& d = cuda_driver();
  if (!d.loaded) {
    c.reason = d.error;
    return c;
  }
  int count = 0;
  if (d.device_count(&count) != 0 || count == 0) {
    c.reason = "no NVIDIA GPU visible to the driver";
    return c;
  }
  if (index < 0 || index >= count) {
    c.reason = fmt::format("no device cuda:{} (this machine has {} GPU{}: cuda:0..cuda:{})", index, count,
                           count == 1 ? "" : "s", count - 1);
    return c;
  }
  d.device_get(&c.dev, index);
  char name[256] = {0};
  d.device_name(name, sizeof name, c.dev);
  c.name = name;
  auto ip = zeroed<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  CUptiResult r = cuptiProfilerInitialize(&ip);
  if (r != CUPTI_SUCCESS) {
    c.reason = "cuptiProfilerInitialize failed: " + cupti_error(r);
    return c;
  }
  auto sp = zeroed<CUpti_Profiler_DeviceSupported_Params>(CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE);
  sp.cuDevice = c.dev;
  sp.api = CUPTI_PROFILER_RANGE_PROFILING;
  r = cuptiProfilerDeviceSupported(&sp);
  if (r != CUPTI_SUCCESS) {
    c.reason = "cuptiProfilerDeviceSupported failed: " + cupti_error(r);
    return c;
  }
  if (sp.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
    std::vector<std::string> why;
    if (sp.architecture != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) why.push_back("architecture older than compute capability 7.0");
    if (sp.vGpu == CUPTI_PROFILER_CONFIGURATION_DISABLED) why.push_back("vGPU with profiling disabled by the hypervisor");
    else if (sp.vGpu != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) why.push_back("vGPU does not support profiling");
    if (sp.sli != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) why.push_back("SLI enabled");
    if (sp.confidentialCompute != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) why.push_back("confidential compute enabled");
    if (sp.cmp != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) why.push_back("crypto-mining processor");
    if (sp.wsl != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) why.push_back("WSL without profiling support");
    c.reason = fmt::format("{} does not support CUPTI range profiling: {}", c.name,
                           why.empty() ? std::string("unsupported configuration (MIG?)") : fmt::format("{}", fmt::join(why, ", ")));
    return c;
  }
  auto cp = zeroed<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  cp.deviceIndex = static_cast<size_t>(index);
  r = cuptiDeviceGetChipName(&cp);
  if (r != CUPTI_SUCCESS || !cp.pChipName) {
    c.reason = "cuptiDeviceGetChipName failed: " + cupti_error(r);
    return c;
  }
  c.chip = cp.pChipName;
  c.ok = true;
  return c;
}

// Counted iterations asked for when the host API cannot plan the passes: the default metric set
// needs 5 on GH100 (docs/counters.md), so 8 leaves room.
constexpr int kPassesWhenUnplanned = 8;

class CuptiCollector : public Collector {
 public:
  CuptiCollector(int index, std::vector<std::string> metrics, bool per_kernel)
      : index_(index), requested_(std::move(metrics)), per_kernel_(per_kernel) {
    dev_ = check_device(index);
    if (!dev_.ok) reason_ = dev_.reason;
  }
  ~CuptiCollector() override { teardown(); }

  // Per-iteration mode: one counted iteration per pass of the metric set (the host API's plan for
  // the chip); per-kernel mode replays kernels within one iteration.
  int iterations_wanted() const override {
    if (per_kernel_ || !dev_.ok) return 1;
    try {
      return std::max(1, cupti_host_plan(dev_.chip, requested_)["passes"].get<int>());
    } catch (const std::exception&) {
      return kPassesWhenUnplanned;
    }
  }

  void on_measured_begin(int measured_iters) override {
    if (!dev_.ok || state_ != State::idle) return;
    iters_ = measured_iters;
    try {
      setup();
    } catch (const std::exception& e) {
      fail(e.what());
    }
  }

  void on_iteration_begin(int) override {
    if (state_ != State::configured) return;
    try {
      auto s = zeroed<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
      s.pRangeProfilerObject = obj_;
      check(cuptiRangeProfilerStart(&s), "cuptiRangeProfilerStart");
      if (!per_kernel_) {
        auto p = zeroed<CUpti_RangeProfiler_PushRange_Params>(CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE);
        p.pRangeProfilerObject = obj_;
        p.pRangeName = "step";
        check(cuptiRangeProfilerPushRange(&p), "cuptiRangeProfilerPushRange");
      }
      state_ = State::in_pass;
    } catch (const std::exception& e) {
      fail(e.what());
    }
  }

  void on_iteration_end(int) override {
    if (state_ != State::in_pass) return;
    try {
      if (!per_kernel_) {
        auto p = zeroed<CUpti_RangeProfiler_PopRange_Params>(CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE);
        p.pRangeProfilerObject = obj_;
        check(cuptiRangeProfilerPopRange(&p), "cuptiRangeProfilerPopRange");
      }
      auto s = zeroed<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
      s.pRangeProfilerObject = obj_;
      check(cuptiRangeProfilerStop(&s), "cuptiRangeProfilerStop");
      ++passes_done_;
      state_ = State::configured;
      if (s.isAllPassSubmitted) evaluate();
    } catch (const std::exception& e) {
      fail(e.what());
    }
  }

  void on_measured_end() override {
    if (state_ == State::configured || state_ == State::in_pass) {
      fail(fmt::format("collection incomplete: {} of {} passes ran (one pass per counted iteration; raise counter_iters)",
                       passes_done_, passes_));
    }
  }

  nlohmann::json result() const override {
    nlohmann::json r;
    r["source"] = "cupti";
    r["device"] = fmt::format("cuda:{}", index_);
    r["mode"] = per_kernel_ ? "per_kernel" : "per_iteration";
    if (!dev_.name.empty()) r["name"] = dev_.name;
    if (!dev_.chip.empty()) r["chip"] = dev_.chip;
    r["available"] = reason_.empty();
    if (!reason_.empty()) r["reason"] = reason_;
    r["passes"] = passes_;
    r["values"] = values_.empty() ? nlohmann::json::object() : nlohmann::json(values_);
    r["units"] = units_.empty() ? nlohmann::json::object() : nlohmann::json(units_);
    r["unsupported"] = unsupported_.empty() ? nlohmann::json::object() : nlohmann::json(unsupported_);
    nlohmann::json d = values_.empty() ? nlohmann::json::object() : derive(values_);
    d.erase("missing");
    // Every metric comes from one iteration (its pass), so the derived totals cover one iteration.
    if (!values_.empty()) d["iterations"] = 1;
    r["derived"] = d;
    r["iterations"] = values_.empty() ? 0 : 1;
    if (per_kernel_ && !kernels_.empty()) r["per_kernel"] = kernels_;
    if (dropped_ranges_ > 0) r["dropped_ranges"] = dropped_ranges_;
    return r;
  }

 private:
  enum class State { idle, configured, in_pass, done, failed };

  void setup() {
    const CudaDriver& d = cuda_driver();
    CudaDriver::CUcontext ctx = nullptr;
    d.ctx_get_current(&ctx);
    if (!ctx) {
      // LibTorch runs on the primary context; retain it so CUPTI attaches to the same one.
      int r = d.primary_retain(&ctx, dev_.dev);
      if (r != 0) throw std::runtime_error("cuDevicePrimaryCtxRetain failed: " + d.name(r));
      retained_ = true;
      d.ctx_set_current(ctx);
    }
    ctx_ = ctx;
    auto ap = zeroed<CUpti_Profiler_GetCounterAvailability_Params>(CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
    ap.ctx = static_cast<CUcontext>(ctx);
    check(cuptiProfilerGetCounterAvailability(&ap), "cuptiProfilerGetCounterAvailability");
    avail_.resize(ap.counterAvailabilityImageSize);
    ap.pCounterAvailabilityImage = avail_.data();
    check(cuptiProfilerGetCounterAvailability(&ap), "cuptiProfilerGetCounterAvailability");

    std::map<std::string, std::string> invalid, dims;
    {
      Host h(dev_.chip, &avail_);
      validate_all(h, requested_, metrics_, invalid, &dims);
    }
    for (auto& [m, why] : invalid) unsupported_[m] = why;
    if (metrics_.empty()) throw std::runtime_error("none of the requested metrics exists on " + dev_.chip);
    {
      std::vector<std::string> together;
      std::map<std::string, std::string> separate;
      combine(dev_.chip, &avail_, metrics_, together, separate);
      for (auto& [m, why] : separate) unsupported_[m] = why;
      metrics_ = together;
    }
    if (metrics_.empty()) throw std::runtime_error("the requested metrics cannot be collected together on " + dev_.chip);
    passes_ = passes_for(dev_.chip, &avail_, metrics_);
    // Per-iteration mode needs one measured iteration per pass: drop whole groups from the end
    // until the rest fits, and say which.
    while (!per_kernel_ && passes_ > static_cast<size_t>(std::max(iters_, 0)) && !metrics_.empty()) {
      std::string g = group_of(metrics_.back());
      while (!metrics_.empty() && group_of(metrics_.back()) == g) {
        unsupported_[metrics_.back()] = fmt::format("not collected: the metric set needs more passes than the {} counted "
                                                    "iterations (one pass per iteration; raise counter_iters)", iters_);
        metrics_.pop_back();
      }
      passes_ = passes_for(dev_.chip, &avail_, metrics_);
    }
    if (metrics_.empty()) throw std::runtime_error(fmt::format("{} counted iterations are too few for any metric group", iters_));
    for (const auto& m : metrics_) {
      UnitScale u = parse_unit(dims[m]);
      units_[m] = u.base;
      factor_[m] = u.factor;
    }
    {
      Host h(dev_.chip, &avail_);
      config_ = h.config(metrics_);
    }

    auto ep = zeroed<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
    ep.ctx = static_cast<CUcontext>(ctx);
    check(cuptiRangeProfilerEnable(&ep), "cuptiRangeProfilerEnable");
    obj_ = ep.pRangeProfilerObject;
    enabled_ = true;

    const size_t max_ranges = per_kernel_ ? kMaxKernelRanges : 1;
    std::vector<const char*> names;
    for (const auto& m : metrics_) names.push_back(m.c_str());
    auto sp = zeroed<CUpti_RangeProfiler_GetCounterDataSize_Params>(CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
    sp.pRangeProfilerObject = obj_;
    sp.pMetricNames = names.data();
    sp.numMetrics = names.size();
    sp.maxNumOfRanges = max_ranges;
    sp.maxNumRangeTreeNodes = static_cast<uint32_t>(max_ranges);
    check(cuptiRangeProfilerGetCounterDataSize(&sp), "cuptiRangeProfilerGetCounterDataSize");
    data_.assign(sp.counterDataSize, 0);
    auto ip = zeroed<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
    ip.pRangeProfilerObject = obj_;
    ip.counterDataSize = data_.size();
    ip.pCounterData = data_.data();
    check(cuptiRangeProfilerCounterDataImageInitialize(&ip), "cuptiRangeProfilerCounterDataImageInitialize");

    auto cp = zeroed<CUpti_RangeProfiler_SetConfig_Params>(CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
    cp.pRangeProfilerObject = obj_;
    cp.configSize = config_.size();
    cp.pConfig = config_.data();
    cp.counterDataImageSize = data_.size();
    cp.pCounterDataImage = data_.data();
    cp.range = per_kernel_ ? CUPTI_AutoRange : CUPTI_UserRange;
    cp.replayMode = per_kernel_ ? CUPTI_KernelReplay : CUPTI_UserReplay;
    cp.maxRangesPerPass = max_ranges;
    cp.numNestingLevels = 1;
    cp.minNestingLevel = 1;
    cp.passIndex = 0;
    cp.targetNestingLevel = 1;
    check(cuptiRangeProfilerSetConfig(&cp), "cuptiRangeProfilerSetConfig");
    state_ = State::configured;
  }

  void evaluate() {
    auto dp = zeroed<CUpti_RangeProfiler_DecodeData_Params>(CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
    dp.pRangeProfilerObject = obj_;
    check(cuptiRangeProfilerDecodeData(&dp), "cuptiRangeProfilerDecodeData");
    dropped_ranges_ = dp.numOfRangeDropped;
    auto ip = zeroed<CUpti_RangeProfiler_GetCounterDataInfo_Params>(CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
    ip.pCounterDataImage = data_.data();
    ip.counterDataImageSize = data_.size();
    check(cuptiRangeProfilerGetCounterDataInfo(&ip), "cuptiRangeProfilerGetCounterDataInfo");
    std::vector<const char*> names;
    for (const auto& m : metrics_) names.push_back(m.c_str());
    std::vector<double> vals(metrics_.size());
    Host h(dev_.chip, &avail_);
    // EvaluateToGpuValues needs the metrics in the host object's configuration.
    h.config(metrics_);
    std::map<std::string, double> totals;
    for (size_t r = 0; r < ip.numTotalRanges; ++r) {
      auto ev = zeroed<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
      ev.pHostObject = h.obj();
      ev.pCounterDataImage = data_.data();
      ev.counterDataImageSize = data_.size();
      ev.rangeIndex = r;
      ev.ppMetricNames = names.data();
      ev.numMetrics = names.size();
      ev.pMetricValues = vals.data();
      check(cuptiProfilerHostEvaluateToGpuValues(&ev), "cuptiProfilerHostEvaluateToGpuValues");
      std::map<std::string, double> range;
      for (size_t i = 0; i < metrics_.size(); ++i) {
        // gpu__time_duration is in ns: scale every value to the base unit.
        range[metrics_[i]] = vals[i] * factor_[metrics_[i]];
        totals[metrics_[i]] += range[metrics_[i]];
      }
      if (per_kernel_) {
        auto gp = zeroed<CUpti_RangeProfiler_CounterData_GetRangeInfo_Params>(CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE);
        gp.pCounterDataImage = data_.data();
        gp.counterDataImageSize = data_.size();
        gp.rangeIndex = r;
        gp.rangeDelimiter = "/";
        std::string name = cuptiRangeProfilerCounterDataGetRangeInfo(&gp) == CUPTI_SUCCESS && gp.rangeName ? gp.rangeName : "";
        nlohmann::json k = derive(range);
        k.erase("missing");
        k["name"] = name;
        k["values"] = range;
        kernels_.push_back(k);
      }
    }
    values_ = totals;
    state_ = State::done;
    teardown();
  }

  void fail(const std::string& why) {
    reason_ = why;
    state_ = State::failed;
    teardown();
  }

  void teardown() {
    if (enabled_) {
      if (state_ == State::in_pass) {
        auto s = zeroed<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
        s.pRangeProfilerObject = obj_;
        cuptiRangeProfilerStop(&s);
      }
      auto dp = zeroed<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
      dp.pRangeProfilerObject = obj_;
      cuptiRangeProfilerDisable(&dp);
      enabled_ = false;
    }
    if (retained_) {
      cuda_driver().primary_release(dev_.dev);
      retained_ = false;
    }
  }

  static constexpr size_t kMaxKernelRanges = 4096;  // kernels per training step in per-kernel mode
  int index_;
  std::vector<std::string> requested_, metrics_;
  bool per_kernel_;
  DeviceCheck dev_;
  std::string reason_;
  State state_ = State::idle;
  int iters_ = 0;
  size_t passes_ = 0, passes_done_ = 0, dropped_ranges_ = 0;
  void* ctx_ = nullptr;
  bool retained_ = false, enabled_ = false;
  CUpti_RangeProfiler_Object* obj_ = nullptr;
  std::vector<uint8_t> avail_, config_, data_;
  std::map<std::string, double> values_, factor_;
  std::map<std::string, std::string> units_, unsupported_;
  nlohmann::json kernels_ = nlohmann::json::array();
};

}  // namespace

nlohmann::json cupti_device_info(int index) {
  DeviceCheck c = check_device(index);
  nlohmann::json j{{"available", c.ok}};
  if (!c.ok) j["reason"] = c.reason;
  if (!c.name.empty()) j["name"] = c.name;
  if (!c.chip.empty()) j["chip"] = c.chip;
  return j;
}

std::unique_ptr<Collector> make_cupti_collector(int index, const std::vector<std::string>& metrics, bool per_kernel) {
  return std::make_unique<CuptiCollector>(index, metrics, per_kernel);
}

#endif

}  // namespace rlx::counters
