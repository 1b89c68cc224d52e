// trainer.h: training with honest timing (no LibTorch in this header, so the binding and the
// tests include it cheaply; trainer.cpp is the one LibTorch translation unit).
//
// A run trains warm-up iterations nobody measures (a fixed `warmup`, or with warmup_auto until two
// consecutive iterations agree, bounded), then timed iterations (a fixed `iters`, or with
// target_ci until the 95 % CI of the mean is precise enough, bounded by max_iters and
// max_seconds: stats.h's TargetRule), then `counter_iters` counted iterations of SGD (momentum,
// weight decay) on cross-entropy, model in train mode. Every timed iteration is
// timed from the moment it asks for its batch to the moment the device has finished its step
// (synchronize; CUDA events on CUDA), so a sample is the true cost of one step; the part of it
// spent waiting for data is kept apart (data_wait_s). images_per_s = batch * iters / seconds.
// Counters (the observer) only see the counted iterations, which come after the last timed one:
// a counter never slows a timed iteration. The timed samples get a steady-state verdict
// (stats.h); with min_stable the timed section is extended until it is steady, up to a cap.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "models/model_spec.h"
#include "train/observer.h"
#include "train/stats.h"

namespace rlx::train {

// How the optimizer step runs (train/sgd.h), for `rlx version` and the stored environment: it names
// the CUDA kernel, _fused_sgd_ or _foreach_, which this LibTorch decides when rlx is compiled.
std::string optimizer_note();

// A field that is an option of rlx.train is declared in train/options.cpp (its type, bounds, the
// rules between options, its flag and doc line); its default is the one written here.
struct TrainConfig {
  nlohmann::json model = "resnet18";  // a built-in name or a model description (models::from_option)
  int64_t batch = 32;
  int64_t iters = 20;
  int64_t warmup = 5;
  std::string device = "auto";     // "cpu", "cuda", "cuda:N", "auto"
  std::string precision = "fp32";  // "fp32", "amp" (CUDA fp16 + grad scaling), "bf16"
  std::string data = "synthetic";  // "synthetic", or a path: ImageFolder root or CIFAR-10 folder
  bool augment = true;             // ImageFolder/CIFAR: random resized crop + flip, else resize + center crop
  int64_t workers = 0;             // data loading threads (0: decode on the training thread)
  int64_t prefetch = 2;            // batches queued per worker
  int64_t threads = 0;             // intra-op threads; 0 = default_threads (util/cpu_stat.h)
  std::string memory_format;  // "channels_last", "contiguous"; "" = channels_last for convolutional models
  int64_t grad_accum = 1;     // optimizer step every grad_accum iterations
  bool deterministic = false;
  bool cudnn_benchmark = false;
  bool nvtx = false;
  double lr = 0.1, momentum = 0.9, weight_decay = 1e-4;
  int64_t seed = 0;
  int64_t input = 0;    // image side; 0 = 224 (32 for CIFAR-10)
  int64_t classes = 0;  // 0 = the dataset's classes (1000 for synthetic data)
  std::string label;
  bool progress = false;        // progress bar on stderr
  int64_t counter_iters = -1;   // counted iterations after the timed ones; -1: as many as the
                                // observer wants (IterationObserver::iterations_wanted), 0 without one
  bool pin_memory = false;      // CUDA with a dataset: page-locked batches, asynchronous copy
  bool min_stable = false;      // extend the timed section until the verdict is stable
  StabilityRule stability;      // the verdict's thresholds
  int64_t max_extra_iters = 0;  // min_stable's cap on extra timed iterations; 0 = 2 x iters
  bool warmup_auto = false;     // warm up until steady (stats.h WarmupRule; `warmup` is then unused)
  int64_t max_warmup = 10;      // warmup_auto's cap (the seed's 10 warm-up iterations)
  double target_ci = 0;         // > 0: timed iterations until the CI is within it (`iters` unused)
  int64_t min_iters = 5, max_iters = 100;  // target_ci's bounds on timed iterations
  double max_seconds = 0;                  // target_ci's cap on the timed section's wall clock; 0 = none
  bool tf32 = false;                       // CUDA: cuBLAS/cuDNN may use TF32 for fp32 (pinned either way)
  bool cuda_graphs = false;  // CUDA: capture the whole step once after warm-up, replay it (trainer.cpp)
  // Data-parallel (train/data_parallel.h): processes that train the model together on c10d, each
  // on `batch` images (global batch ranks x batch); 1 = one process, no c10d.
  int64_t ranks = 1;
  int64_t rendezvous_port = 0;  // the run's TCPStore port; 0 = a free port the system picks
};

// What one rank measured of its communication (data-parallel runs; all zero for one process).
// Seconds are means over the timed steps.
struct CommFigures {
  std::string backend;                  // "gloo" (CPU) or "nccl" (CUDA)
  int64_t rank = 0;
  std::string host;
  int64_t pid = 0;
  std::string cpus;                     // the CPUs the rank was pinned to ("0", "2,3"); "" = not pinned
  double allreduce_s = 0;               // wall time some gradient bucket's all-reduce was in flight
  double exposed_comm_s = 0;            // last bucket's completion minus its launch (not overlapped)
  double buffer_broadcast_s = 0;        // rank 0's buffers (BatchNorm statistics) to all, before forward
  int64_t grad_bytes_per_step = 0;      // bytes of gradient buckets this rank all-reduced per step
  int64_t buckets = 0;                  // gradient buckets (c10d::Reducer's, after its rebuild)
  int64_t bucket_cap_bytes = 0;
  int64_t param_bytes = 0;              // the model's parameters, one replica
};

struct TrainResult {
  bool ok = false;
  std::string error;  // why ok is false
  // Where one option's value fixes the failure (train/run_failure.h): the error without its fix,
  // and the option and value ("device", "cpu"); all "" otherwise.
  std::string error_cause, error_fix_option, error_fix_value;
  double images_per_s = 0;
  double seconds = 0;  // sum of the measured samples
  double wall_s = 0;   // wall clock of the whole measured section (samples plus bookkeeping)
  Summary iter_s;
  std::vector<double> samples;         // seconds per timed iteration (the last `iters` when extended)
  Stability stability;                 // steady-state verdict of `samples`
  std::vector<double> warmup_samples;  // seconds of each warm-up iteration (min_stable's dropped ones too)
  int64_t warmup_used = 0;             // warm-up iterations run, min_stable's dropped samples included
  bool warmup_settled = true;          // warm-up until steady ended by its rule, not its cap (fixed: true)
  std::string stop_reason;             // "fixed", "ci", "max_iters" or "max_seconds"
  double ci_rel = 0;                   // ci_rel95(samples): relative 95 % CI half-width of the mean
  double other_cpu = -1, steal_cpu = -1, cpu_share = -1;  // contention (process_usage.h); -1 = unknown
  bool contended = false;
  double cpu_quota = -1;                // the cgroup's CPU quota in CPUs (util/cpu_quota.h); -1 = none
  std::string threads_from;             // "threads" (asked), "OMP_NUM_THREADS" or "cpus" (the default)
  int64_t counter_iters = 0;            // counted iterations run after the timed ones
  std::vector<double> counted_samples;  // their times (counters active: never used for speeds)
  double counted_iter_s = 0;            // mean of counted_samples
  bool pin_memory = false;              // whether batches were copied from page-locked memory
  double data_wait_s = 0;               // part of `seconds` spent waiting for a batch (and copying it)
  double user_s = 0, sys_s = 0;         // CPU time of the process during the measured section
  int64_t page_faults = 0;  // page faults (minor + major) of the process during the measured section
  int64_t max_rss_bytes = 0;
  std::string max_rss_scope;      // "measured" (peak reset before the section) or "process"
  int64_t device_max_bytes = -1;  // CUDA allocator peak during the measured section; -1 = n/a
  double loss_first = 0, loss_last = 0;
  int64_t threads = 0;
  std::string device;  // the device used ("cpu", "cuda:0")
  std::string precision;
  std::string memory_format;       // the layout used ("channels_last" or "contiguous")
  int64_t skipped_files = -1;      // ImageFolder: unreadable files met; -1 = not a folder
  std::string skipped_first;       // the first of them and why ("'a/b.jpg': ..."); "" when none
  int64_t dataset_size = -1;       // samples available in the data source; -1 = synthetic
  int64_t dataset_classes = -1;    // classes the data source has; -1 = synthetic
  std::string data_kind;           // "synthetic", "imagefolder", "cifar10"
  std::string note;                // e.g. nvtx requested without CUDA
  std::string model_name;          // the model's name
  int64_t input = 0, classes = 0;  // the values the model was built with
  int64_t ranks = 1;               // data-parallel processes (images_per_s is then over all of them)
  CommFigures comm;                // this rank's communication (a rank's own result)
  nlohmann::json data_parallel;    // the run's per-rank figures and totals (ranks > 1; else null)
};

// Checks the values of a config (ranges, known device/precision names); throws
// std::invalid_argument naming the field ("batch must be >= 1, got 0").
void validate(const TrainConfig& config);

// Runs the training. Throws std::invalid_argument for an invalid config and
// rlx::util::Interrupted on Ctrl-C; every other failure (no such device, precision not available
// there, missing dataset, out of memory) is returned as ok = false with `error`.
// `observer` (may be null) sees the measured section, e.g. a counters collector.
TrainResult train(const TrainConfig& config, IterationObserver* observer = nullptr);

// The result as a json object with the config echoed (see docs/lua-api/train.md).
nlohmann::json to_json(const TrainConfig& config, const TrainResult& result);

}  // namespace rlx::train
