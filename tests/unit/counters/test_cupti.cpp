// test_cupti.cpp: the CUPTI backend on a machine without a GPU: it is compiled in, the host API
// validates metric names and counts passes for GH100 and GA100 from the chip name alone, and a
// collector for a cuda device reports the missing driver instead of failing.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>

#include "counters/collector.h"
#include "counters/cupti_backend.h"
#include "counters/metrics.h"

using namespace rlx::counters;

namespace {
bool has(const nlohmann::json& arr, const std::string& s) { return std::find(arr.begin(), arr.end(), s) != arr.end(); }
// Whether this machine has the NVIDIA driver (the GPU machines do; the CPU build machines not).
bool driver_present() {
  void* h = dlopen("libcuda.so.1", RTLD_LAZY);
  if (h) dlclose(h);
  return h != nullptr;
}
}  // namespace

// Builds without the CUDA toolkit (RLX_HAVE_CUPTI off) check the "not compiled in" answers instead.
#define REQUIRE_CUPTI()                                                                   \
  if (!cupti_compiled()) {                                                                \
    CHECK_THROWS_WITH(cupti_host_plan("GH100", {}),                                       \
                      "CUPTI support is not compiled in (rebuild with the CUDA toolkit installed)"); \
    return;                                                                               \
  }

TEST_CASE("cupti: compiled in when the toolkit is found") {
#ifdef RLX_COUNTERS_HAVE_CUPTI
  CHECK(cupti_compiled());
#else
  CHECK_FALSE(cupti_compiled());
#endif
}

TEST_CASE("cupti host API: GH100 metric names and pass counts") {
  REQUIRE_CUPTI();
  auto p = cupti_host_plan("GH100", cuda_metrics_for({}));
  CHECK(p["chip"] == "GH100");
  CHECK(has(p["valid"], "dram__bytes_read.sum"));
  CHECK(has(p["valid"], "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"));
  CHECK(has(p["valid"], "sm__ops_path_tensor_src_fp16.sum"));
  CHECK(has(p["valid"], "sm__ops_path_tensor_src_bf16_dst_fp32.sum"));
  CHECK(has(p["valid"], "sm__ops_path_tensor_src_tf32_dst_fp32.sum"));
  // The GA100 split does not exist on Hopper.
  CHECK(p["invalid"].contains("sm__ops_path_tensor_src_fp16_dst_fp32.sum"));
  CHECK(p["invalid"]["sm__ops_path_tensor_src_fp16_dst_fp32.sum"].get<std::string>().find("INVALID_METRIC_NAME") !=
        std::string::npos);
  // PCIe does not share a configuration with the SM and memory metrics on GH100.
  CHECK(p["separate"].contains("pcie__read_bytes.sum"));
  CHECK(p["units"]["gpu__time_duration.sum"] == "nanosecond");
  CHECK(p["units"]["dram__bytes_read.sum"] == "byte");
  // Whole groups that fit one pass: time + DRAM + L2 + L1, and the nine SASS counters.
  REQUIRE(p["groups"].size() >= 2);
  CHECK(p["groups"][0] == nlohmann::json({"gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum",
                                          "lts__t_bytes.sum", "l1tex__t_bytes.sum"}));
  CHECK(p["group_passes"][0] == 1);
  CHECK(p["groups"][1].size() == 9);
  CHECK(p["group_passes"][1] == 1);
  CHECK(p["passes"].get<int>() >= 2);
}

TEST_CASE("cupti host API: one-pass sets as measured on GH100") {
  REQUIRE_CUPTI();
  CHECK(cupti_host_plan("GH100", cuda_metrics_for({"time", "dram"}))["passes"] == 1);
  CHECK(cupti_host_plan("GH100", cuda_metrics_for({"fp32", "fp16"}))["passes"] == 1);
  CHECK(cupti_host_plan("GH100", cuda_metrics_for({"time", "pcie"}))["passes"] == 1);
}

TEST_CASE("cupti host API: GA100 has the fp16 accumulator split") {
  REQUIRE_CUPTI();
  auto p = cupti_host_plan("GA100", cuda_metrics_for({"tensor"}));
  CHECK(has(p["valid"], "sm__ops_path_tensor_src_fp16_dst_fp32.sum"));
  CHECK(has(p["valid"], "sm__ops_path_tensor_src_fp16_dst_fp16.sum"));
  CHECK(p["invalid"].contains("sm__ops_path_tensor_src_fp16.sum"));
  CHECK(p["invalid"].contains("sm__ops_path_tensor_src_fp8.sum"));
}

TEST_CASE("cupti host API: unknown chip and unknown group") {
  CHECK_THROWS_WITH(cuda_metrics_for({"dramm"}),
                    "unknown cuda counter group 'dramm' (valid: time, dram, l2, l1, fp32, fp16, fp64, tensor, pcie)");
  REQUIRE_CUPTI();
  CHECK_THROWS_WITH(cupti_host_plan("XYZ999", {"dram__bytes_read.sum"}),
                    Catch::StartsWith("CUPTI host API does not know chip 'XYZ999': "));
}

TEST_CASE("cupti collector without a GPU: unavailable with the reason, hooks are no-ops") {
  if (driver_present()) {
    WARN("an NVIDIA driver is present: the no-driver path is not tested here");
    return;
  }
  auto c = make_collector("cuda", {});
  c->on_measured_begin(3);
  for (int i = 0; i < 3; ++i) {
    c->on_iteration_begin(i);
    c->on_iteration_end(i);
  }
  c->on_measured_end();
  auto r = c->result();
  CHECK(r["source"] == "cupti");
  CHECK(r["device"] == "cuda:0");
  CHECK(r["available"] == false);
  CHECK(r["values"].empty());
  if (!cupti_compiled()) {
    CHECK(r["reason"] == "CUPTI support is not compiled in (rebuild with the CUDA toolkit installed)");
    return;
  }
  CHECK(r["reason"] == "no NVIDIA driver (libcuda.so.1 not found)");
  auto a = availability("cuda:1");
  CHECK(a["available"] == false);
  CHECK(a["reason"] == "no NVIDIA driver (libcuda.so.1 not found)");
  auto l = list_metrics("cuda", "GH100");
  CHECK(l["available"] == false);
  CHECK(l["chip"] == "GH100");
  CHECK(l["metrics"].size() == cuda_metrics().size());
}
