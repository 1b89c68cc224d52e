// config.cpp: validation of a TrainConfig and the result's json form (no LibTorch; the trainer
// itself is trainer.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <regex>
#include <stdexcept>

#include "models/complexity.h"
#include "train/trainer.h"

namespace rlx::train {
namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}

bool listed(const std::vector<std::string>& list, const std::string& v) {
  return std::find(list.begin(), list.end(), v) != list.end();
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

// What data-parallel runs cannot do, refused from the options alone (the devices and cores are
// counted when the run starts: rank_launch.cpp).
void check_ranks(const TrainConfig& c) {
  require(c.ranks >= 1 && c.ranks <= 1024,
          fmt::format("ranks must be 1..1024 (data-parallel processes), got {}", c.ranks));
  require(c.rendezvous_port >= 0 && c.rendezvous_port <= 65535,
          fmt::format("rendezvous_port must be 0..65535 (0: a free port), got {}", c.rendezvous_port));
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

void validate(const TrainConfig& c) {
  require(c.batch >= 1, fmt::format("batch must be >= 1, got {}", c.batch));
  require(c.iters >= 1, fmt::format("iters must be >= 1, got {}", c.iters));
  require(c.warmup >= 0, fmt::format("warmup must be >= 0, got {}", c.warmup));
  static const std::regex device_re("^(cpu|auto|cuda|cuda:[0-9]+)$");
  require(std::regex_match(c.device, device_re),
          fmt::format("device must be \"cpu\", \"cuda\", \"cuda:N\" or \"auto\", got \"{}\"", c.device));
  require(listed(models::precision_names(), c.precision),
          fmt::format("precision must be \"fp32\", \"amp\" or \"bf16\", got \"{}\"", c.precision));
  require(
      c.memory_format.empty() || listed(models::memory_format_names(), c.memory_format),
      fmt::format("memory_format must be \"channels_last\" or \"contiguous\", got \"{}\"", c.memory_format));
  require(!c.data.empty(), "data must be \"synthetic\" or a dataset path, got \"\"");
  require(c.workers >= 0, fmt::format("workers must be >= 0, got {}", c.workers));
  require(c.prefetch >= 1, fmt::format("prefetch must be >= 1, got {}", c.prefetch));
  require(c.threads >= 0, fmt::format("threads must be >= 0 (0 = all cores), got {}", c.threads));
  require(c.grad_accum >= 1, fmt::format("grad_accum must be >= 1, got {}", c.grad_accum));
  require(c.lr > 0, fmt::format("lr must be > 0, got {}", c.lr));
  require(c.momentum >= 0, fmt::format("momentum must be >= 0, got {}", c.momentum));
  require(c.weight_decay >= 0, fmt::format("weight_decay must be >= 0, got {}", c.weight_decay));
  require(c.seed >= 0, fmt::format("seed must be >= 0, got {}", c.seed));
  require(c.input >= 0, fmt::format("input must be >= 1, got {}", c.input));
  require(c.classes >= 0, fmt::format("classes must be >= 1, got {}", c.classes));
  require(c.counter_iters >= -1, fmt::format("counter_iters must be >= 0, got {}", c.counter_iters));
  require(c.max_extra_iters >= 0,
          fmt::format("max_extra_iters must be >= 0 (0 = 2 x iters), got {}", c.max_extra_iters));
  require(!c.min_stable || c.iters >= 2,
          fmt::format("min_stable needs iters >= 2 (one sample has no drift to judge), got {}", c.iters));
  require(c.stability.max_drift > 0 && std::isfinite(c.stability.max_drift),
          fmt::format("min_stable's drift must be a number > 0, got {}", c.stability.max_drift));
  require(c.stability.max_cv > 0 && std::isfinite(c.stability.max_cv),
          fmt::format("min_stable's cv must be a number > 0, got {}", c.stability.max_cv));
  require(std::isfinite(c.target_ci) && c.target_ci >= 0 && c.target_ci < 1,
          fmt::format("target_ci must be a fraction in (0, 1), e.g. 0.02 for +/-2 %, got {}", c.target_ci));
  if (c.target_ci > 0) {
    require(c.min_iters >= 2,
            fmt::format("min_iters must be >= 2 (a CI needs two samples), got {}", c.min_iters));
    require(c.max_iters >= c.min_iters,
            fmt::format("max_iters must be >= min_iters ({}), got {}", c.min_iters, c.max_iters));
    require(std::isfinite(c.max_seconds) && c.max_seconds >= 0,
            fmt::format("max_seconds must be a number >= 0 (0 = no time cap), got {}", c.max_seconds));
    require(!c.min_stable,
            "min_stable extends a fixed iters; with target_ci the run measures until steady by itself");
  }
  require(!c.warmup_auto || c.max_warmup >= 1, fmt::format("max_warmup must be >= 1, got {}", c.max_warmup));
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
  // The echoed configuration (what was asked), then what was used and measured.
  j["model"] = r.model_name.empty()
                   ? (c.model.is_string() ? c.model.get<std::string>() : std::string("custom"))
                   : r.model_name;
  j["batch"] = c.batch;
  protocol_json(c, r, j);
  j["device_requested"] = c.device;
  j["data"] = c.data;
  j["augment"] = c.augment;
  j["workers"] = c.workers;
  j["prefetch"] = c.prefetch;
  if (!r.memory_format.empty() || !c.memory_format.empty())
    j["memory_format"] = r.memory_format.empty() ? c.memory_format : r.memory_format;
  j["grad_accum"] = c.grad_accum;
  j["deterministic"] = c.deterministic;
  j["cudnn_benchmark"] = c.cudnn_benchmark;
  j["nvtx"] = c.nvtx;
  j["pin_memory"] = c.pin_memory;
  j["tf32"] = c.tf32;  // as asked; `note` says when it had nothing to pin
  j["cuda_graphs"] = c.cuda_graphs;  // an ok run with it timed replays of the captured step
  j["min_stable"] = c.min_stable;
  // Data-parallel: batch is per rank; the global batch is what one step trains over all ranks.
  j["ranks"] = c.ranks;
  j["global_batch"] = c.ranks * c.batch;
  j["lr"] = c.lr;
  j["momentum"] = c.momentum;
  j["weight_decay"] = c.weight_decay;
  j["seed"] = c.seed;
  j["input"] = r.input > 0 ? r.input : c.input;
  j["classes"] = r.classes > 0 ? r.classes : c.classes;
  if (!c.label.empty()) j["label"] = c.label;
  j["device"] = r.device.empty() ? c.device : r.device;
  j["precision"] = r.precision.empty() ? c.precision : r.precision;
  j["threads"] = r.threads;
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
