// config.cpp: validation of a TrainConfig and the result's json form (no LibTorch; the trainer
// itself is trainer.cpp).
#include <fmt/format.h>

#include <cmath>
#include <regex>
#include <stdexcept>

#include "models/complexity.h"
#include "train/options.h"
#include "train/trainer.h"

namespace rlx::train {
namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}

// The protocol as asked: warm-up (a count or "auto" with its cap), timed iterations (a count, or
// the precision target with its bounds; `iters` is then the count the run took).
void protocol_json(const TrainConfig& c, const TrainResult& r, nlohmann::json& j) {
  if (c.warmup_auto) {
    j["warmup"] = "auto";
    j["max_warmup"] = c.max_warmup;
  } else {
    j["warmup"] = c.warmup;
  }
  if (c.target_ci > 0) {
    if (r.ok) j["iters"] = r.samples.size();
    j["target_ci"] = c.target_ci;
    j["min_iters"] = c.min_iters;
    j["max_iters"] = c.max_iters;
    if (c.max_seconds > 0) j["max_seconds"] = c.max_seconds;
  } else {
    j["iters"] = c.iters;
  }
}

// How the measurement went: warm-up used, why the timed section stopped, the CI it reached, and
// what the run shared its cores with (unknown fields left out).
void measured_protocol_json(const TrainResult& r, nlohmann::json& j) {
  j["warmup_used"] = r.warmup_used;
  j["warmup_samples"] = r.warmup_samples;
  j["stop_reason"] = r.stop_reason;
  if (std::isfinite(r.ci_rel)) j["ci_rel"] = r.ci_rel;
  if (r.other_cpu >= 0) {
    j["other_cpu"] = r.other_cpu;
    j["steal_cpu"] = r.steal_cpu;
    j["cpu_share"] = r.cpu_share;
    j["contended"] = r.contended;
  }
}

// What makes a run impossible to capture as one CUDA graph that the options alone say, refused
// before anything is built (the device and the build are checked when the run starts: trainer.cpp).
void check_cuda_graphs(const TrainConfig& c) {
  if (!c.cuda_graphs) return;
  require(c.device != "cpu",
          "cuda_graphs captures the step's CUDA kernels, and the run is on the CPU (device=\"cpu\"); use "
          "device=\"cuda\" or drop cuda_graphs");
  require(c.data == "synthetic",
          fmt::format(
              "cuda_graphs replays one captured step on fixed input tensors, and data=\"{}\" brings a new "
              "batch every step (rlx does not copy batches into the captured inputs); use "
              "data=\"synthetic\" or drop cuda_graphs",
              c.data));
  require(
      c.grad_accum == 1,
      fmt::format("cuda_graphs captures one step with its optimizer update, and grad_accum={} makes steps "
                  "without one; use grad_accum=1 or drop cuda_graphs",
                  c.grad_accum));
  require(
      c.counter_iters <= 0,
      fmt::format("cuda_graphs cannot be combined with counted iterations (counter_iters={}): rlx has not "
                  "verified that its counters see the kernels of a replayed graph; count in a run without "
                  "cuda_graphs",
                  c.counter_iters));
  require(
      c.warmup_auto || c.warmup >= 1,
      "cuda_graphs needs warmup >= 1: the step is captured after eager steps have set up cuDNN, cuBLAS and "
      "the allocator");
}

// What data-parallel runs cannot do, refused from the options alone (their bounds are declared:
// options.cpp; the devices and cores are counted when the run starts: rank_launch.cpp).
void check_ranks(const TrainConfig& c) {
  if (c.ranks == 1) return;
  static const std::regex one_gpu("^cuda:[0-9]+$");
  require(!std::regex_match(c.device, one_gpu),
          fmt::format("device \"{}\" names one GPU, and ranks={} needs one GPU per rank: use device=\"cuda\" "
                      "(rank k trains on cuda:k)",
                      c.device, c.ranks));
  require(!c.min_stable,
          "min_stable extends each rank's timed section on its own, and data-parallel ranks must take the same "
          "steps: use target_ci (rank 0 decides for all) or drop min_stable");
  require(!c.cuda_graphs,
          "cuda_graphs with ranks > 1 is not supported (rlx does not capture collectives): drop cuda_graphs or "
          "use ranks=1");
}

}  // namespace

// Each option's bounds, vocabulary and rules with other options are its declaration's
// (check_declared: options.cpp); what is left here are the rules between values that no one
// option's declaration says.
void validate(const TrainConfig& c) {
  check_declared(c);
  require(c.max_extra_iters >= 0,
          fmt::format("max_extra_iters must be >= 0 (0 = 2 x iters), got {}", c.max_extra_iters));
  require(!c.min_stable || c.iters >= 2,
          fmt::format("min_stable needs iters >= 2 (one sample has no drift to judge), got {}", c.iters));
  require(c.stability.max_drift > 0 && std::isfinite(c.stability.max_drift),
          fmt::format("min_stable's drift must be a number > 0, got {}", c.stability.max_drift));
  require(c.stability.max_cv > 0 && std::isfinite(c.stability.max_cv),
          fmt::format("min_stable's cv must be a number > 0, got {}", c.stability.max_cv));
  check_cuda_graphs(c);
  check_ranks(c);
  // The model itself: a bad name or layer fails here, before anything is built or loaded.
  try {
    (void)models::from_option(c.model, c.classes > 0 ? c.classes : 1000, c.input > 0 ? c.input : 224);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fmt::format("option 'model': {}", e.what()));
  }
}

nlohmann::json to_json(const TrainConfig& c, const TrainResult& r) {
  nlohmann::json j;
  j["ok"] = r.ok;
  if (!r.ok) j["error"] = r.error;
  if (!r.ok && !r.error_fix_option.empty()) {
    j["error_cause"] = r.error_cause;
    j["error_fix"] = {{"option", r.error_fix_option}, {"value", r.error_fix_value}};
  }
  // The echoed configuration (what was asked), then what was used and measured.
  j["model"] = r.model_name.empty()
                   ? (c.model.is_string() ? c.model.get<std::string>() : std::string("custom"))
                   : r.model_name;
  j["batch"] = c.batch;
  protocol_json(c, r, j);
  j["device_requested"] = c.device;
  if (!r.memory_format.empty() || !c.memory_format.empty())
    j["memory_format"] = r.memory_format.empty() ? c.memory_format : r.memory_format;
  // Data-parallel: batch is per rank; the global batch is what one step trains over all ranks.
  j["global_batch"] = c.ranks * c.batch;
  j["input"] = r.input > 0 ? r.input : c.input;
  j["classes"] = r.classes > 0 ? r.classes : c.classes;
  j["device"] = r.device.empty() ? c.device : r.device;
  j["precision"] = r.precision.empty() ? c.precision : r.precision;
  j["threads"] = r.threads;
  // Every other option as asked (tf32 too: `note` says when it had nothing to pin), by its
  // declaration: a new option is echoed without a line here.
  echo_options(c, j);
  if (!r.threads_from.empty()) j["threads_from"] = r.threads_from;
  if (r.cpu_quota > 0) j["cpu_quota"] = r.cpu_quota;
  j["data_kind"] = r.data_kind;
  if (r.skipped_files >= 0) j["skipped_files"] = r.skipped_files;
  if (!r.skipped_first.empty()) j["skipped_first"] = r.skipped_first;
  if (r.dataset_size >= 0) j["dataset_size"] = r.dataset_size;
  if (r.dataset_classes >= 0) j["dataset_classes"] = r.dataset_classes;
  if (!r.note.empty()) j["note"] = r.note;
  if (!r.ok) return j;
  j["images_per_s"] = r.images_per_s;
  j["seconds"] = r.seconds;
  j["wall_s"] = r.wall_s;
  j["iter_s"] = {{"mean", r.iter_s.mean}, {"sd", r.iter_s.sd},   {"median", r.iter_s.median},
                 {"min", r.iter_s.min},   {"max", r.iter_s.max}, {"p5", r.iter_s.p5},
                 {"p95", r.iter_s.p95}};
  j["samples"] = r.samples;
  j["stability"] = {
      {"drift", r.stability.drift},         {"cv", r.stability.cv},
      {"stable", r.stability.stable},       {"judged", r.stability.judged},
      {"drift_t", r.stability.drift_t},     {"drift_significant", r.stability.drift_significant},
      {"warmup_settled", r.warmup_settled}, {"extended_iters", r.stability.extended_iters},
      {"max_drift", c.stability.max_drift}, {"max_cv", c.stability.max_cv}};
  j["counter_iters"] = r.counter_iters;
  if (r.counter_iters > 0) {
    j["counted_iter_s"] = r.counted_iter_s;
    j["counted_samples"] = r.counted_samples;
  }
  measured_protocol_json(r, j);
  j["data_wait_s"] = r.data_wait_s;
  j["user_s"] = r.user_s;
  j["sys_s"] = r.sys_s;
  j["page_faults"] = r.page_faults;
  j["max_rss_bytes"] = r.max_rss_bytes;
  j["max_rss_scope"] = r.max_rss_scope;
  if (r.device_max_bytes >= 0) j["device_max_bytes"] = r.device_max_bytes;
  j["loss_first"] = r.loss_first;
  j["loss_last"] = r.loss_last;
  if (!r.data_parallel.is_null()) j["data_parallel"] = r.data_parallel;
  return j;
}

}  // namespace rlx::train
