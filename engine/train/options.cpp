// options.cpp: rlx.train's options, declared once each (train/options.h). A new option is a
// Declare(...) line here, its TrainConfig field and the engine code that uses it; the binding,
// the CLI, the sweep, the study's parameters, the planner, the report and the docs read this
// table (docs/architecture.md "Adding a training option"). The order is the one rlx.train reads
// the options in and the docs list them in.
#include <fmt/format.h>

#include <regex>
#include <stdexcept>

#include "models/complexity.h"
#include "train/option_builder.h"
#include "train/progress.h"
#include "util/cpu_stat.h"

namespace rlx::train {
namespace {

bool targeted(const TrainRequest& q) { return q.config.target_ci > 0; }

// More threads than util::max_threads() is a typo, refused in the words OMP_NUM_THREADS gets.
std::string thread_count(const nlohmann::json& v) {
  const auto n = v.get<long long>();
  return n > util::max_threads() ? util::too_many_threads(n) : "";
}

std::string device_name(const nlohmann::json& v) {
  static const std::regex device_re("^(cpu|auto|cuda|cuda:[0-9]+)$");
  if (std::regex_match(v.get<std::string>(), device_re)) return "";
  return fmt::format("must be \"cpu\", \"cuda\", \"cuda:N\" or \"auto\", got \"{}\"", v.get<std::string>());
}

std::string data_source(const nlohmann::json& v) {
  return v.get<std::string>().empty() ? "must be \"synthetic\" or a dataset folder, got \"\"" : "";
}

// warmup = N or "auto" (until steady: stats.h WarmupRule); absent, "auto" with target_ci.
void read_warmup(const OptionReading& r, TrainRequest& q) {
  if (!r.value().is_string()) {
    q.config.warmup = r.integer();
    return;
  }
  const auto text = r.value().get<std::string>();
  if (text != "auto")
    r.fail(fmt::format("must be a number of iterations or \"auto\" (until steady), got \"{}\"", text));
  q.config.warmup_auto = true;
}

// min_stable = true, or {drift = 0.05, cv = 0.25, max_extra = 2 x iters}: extend the timed
// section until steady (docs/training.md "Steady state").
void read_min_stable(const OptionReading& r, TrainRequest& q) {
  const nlohmann::json& v = r.value();
  if (v.is_boolean()) {
    q.config.min_stable = v.get<bool>();
    return;
  }
  if (!v.is_object() && !v.is_array())
    r.fail(fmt::format("must be true, false or a table {{drift =, cv =, max_extra =}}, got a "
                       "{}", r.type_name()));
  const NestedOptions nested(r, {Declare("drift").shape("number", nullptr).min(0, true),
                                 Declare("cv").shape("number", nullptr).min(0, true),
                                 Declare("max_extra").shape("integer", nullptr).min(1)});
  q.config.stability.max_drift = nested.number("drift", q.config.stability.max_drift);
  q.config.stability.max_cv = nested.number("cv", q.config.stability.max_cv);
  q.config.max_extra_iters = nested.integer("max_extra", 0);
  q.config.min_stable = true;
}

// counters = true, or a metric group or a list of them (engine/counters, `rlx counters --list`).
void read_counters(const OptionReading& r, TrainRequest& q) {
  const nlohmann::json& v = r.value();
  if (v.is_boolean()) {
    q.counters = v.get<bool>();
    return;
  }
  if (!v.is_string() && !v.is_array() && !v.is_object())
    r.fail(fmt::format("must be true, false or a list of metric groups, got a {}", r.type_name()));
  q.counter_groups = r.strings();
  q.counters = true;
}

void read_model(const OptionReading& r, TrainRequest& q) {
  const nlohmann::json& v = r.value();
  if (!v.is_string() && !v.is_object() && !v.is_array())
    r.fail(fmt::format("must be a model name or a model table, got a {}", r.type_name()));
  q.config.model = v;
}

const char* kTargetOnly = "applies with target_ci only (e.g. target_ci = 0.02)";

// The steady-state rule in words, from the trainer's own thresholds (StabilityRule), so the help
// cannot drift from what a run applies.
std::string min_stable_help() {
  const StabilityRule rule;
  return fmt::format(
      "extend the timed iterations (up to 2 x --iters more, dropping the oldest) until the last --iters are "
      "steady: no drift beyond {:g} % that exceeds the noise (Welch's t), CV <= {:g} % (docs/training.md "
      "\"Steady state\")",
      rule.max_drift * 100, rule.max_cv * 100);
}

// One declaration per option, a few lines each (kept as written: one property after another).
// clang-format off
std::vector<OptionDecl> declare() {
  return {
      Declare("model").shape("model", read_model).default_value(nullptr).default_text("required")
          .required("a built-in name (rlx.model.list()) or a model table")
          .stored_in(&TrainConfig::model)
          .matrix().column("model").flag("--model", "", "--arch").flag_type("string")
          .help("built-in model name, or a Lua file returning a model table")
          .doc("built-in name (`rlx.model.list()`) or a model table ([model.md](model.md))"),
      Declare("batch").field(&TrainConfig::batch).min(1).unit("images").matrix().column("batch")
          .flag("--batch-size").help("images per iteration").doc("images per iteration (integer >= 1)"),
      Declare("iters").field(&TrainConfig::iters).min(1).typed_max(100000).unit("iterations").pass()
          .column("iters")
          .excludes("target_ci",
                    "is a fixed count; with target_ci the run measures until precise (bound it with "
                    "max_iters, max_seconds)",
                    targeted)
          .flag("--iters").help("measured iterations (not with --target-ci)")
          .doc("measured iterations (>= 1); refused with `target_ci`"),
      Declare("warmup").shape("warmup", read_warmup).min(0).typed_max(100000).unit("iterations").pass()
          .column("warmup").stored_in(&TrainConfig::warmup)
          .default_value(TrainConfig{}.warmup).default_text("`5`; `\"auto\"` with `target_ci`")
          .absent([](TrainRequest& q) { q.config.warmup_auto = targeted(q); })
          .flag("--warmup-iters", "N|auto").flag_type("string")
          .help("unmeasured iterations first (auto: until the step time stops falling, an iteration no more "
                "than 5 % faster than the one before; the default with --target-ci)")
          .doc("unmeasured iterations before them (>= 0), or `\"auto\"`: until two consecutive ones agree "
               "within 5 % ([../training.md](../training.md#warm-up-until-steady))"),
      Declare("max_warmup").field(&TrainConfig::max_warmup).min(1).typed_max(100000).unit("iterations").pass()
          .needs("warmup", "applies with warmup = \"auto\" only",
                 [](const TrainRequest& q) { return q.config.warmup_auto; })
          .flag("--max-warmup").help("cap of --warmup-iters auto")
          .doc("with `warmup = \"auto\"`: at most this many warm-up iterations (>= 1)"),
      Declare("target_ci").field(&TrainConfig::target_ci).unset(0.0).min(0, true)
          .max(1, "a fraction below 1 (0.02 = +/-2 %)", true).unit("fraction").pass().column("target_ci")
          .default_text("none").flag("--target-ci", "F")
          .help("measure until the 95 % CI of the mean is within +/-F (e.g. 0.02)")
          .doc("a fraction in (0, 1): time iterations until the 95 % CI of the mean iteration time is within "
               "±`target_ci` of it and the samples are steady "
               "([../training.md](../training.md#precision-targeted-iterations))"),
      Declare("min_iters").field(&TrainConfig::min_iters).min(2).typed_max(100000).unit("iterations").pass()
          .needs("target_ci", kTargetOnly, targeted)
          .flag("--min-iters").help("--target-ci: samples before judging")
          .doc("with `target_ci`: samples taken before judging (>= 2)"),
      Declare("max_iters").field(&TrainConfig::max_iters).min(1).typed_max(100000).unit("iterations").pass()
          .needs("target_ci", kTargetOnly, targeted).at_least("min_iters")
          .flag("--max-iters").help("--target-ci: cap on measured iterations")
          .doc("with `target_ci`: at most this many timed iterations (>= `min_iters`)"),
      Declare("max_seconds").field(&TrainConfig::max_seconds).unset(0.0).min(0, true).typed_max(31536000)
          .unit("s").needs("target_ci", kTargetOnly, targeted).default_text("none")
          .flag("--max-seconds").help("--target-ci: cap on measured wall-clock seconds")
          .doc("with `target_ci`: stop before a sample would end past this many seconds of timed wall clock "
               "(`min_iters` are always taken)"),
      Declare("device").field(&TrainConfig::device).check(device_name).pass().column("device")
          .flag("--device", "", "--backend").help("auto, cpu, cuda or cuda:N")
          .doc("`\"cpu\"`, `\"cuda\"`, `\"cuda:N\"`, or `\"auto\"` (first GPU if any, else the CPU)"),
      Declare("precision").choice(&TrainConfig::precision, models::precision_names).matrix()
          .column("precision").knob("fp32").flag("--precision")
          .help("fp32; amp = fp16 autocast + grad scaling (CUDA); bf16 autocast")
          .doc("`\"fp32\"`; `\"amp\"` = fp16 autocast with gradient scaling (CUDA only); `\"bf16\"` = "
               "bfloat16 autocast (CPU, or CUDA compute capability >= 8.0)"),
      Declare("data").field(&TrainConfig::data).check(data_source).pass().flag("--data", "PATH")
          .help("ImageFolder root (train/<class>/*.jpg) or CIFAR-10 folder")
          .doc("`\"synthetic\"`, an ImageFolder root (`ROOT/train/<class>/*.jpg`, or `ROOT/<class>/*.jpg`), "
               "or a CIFAR-10 folder (`data_batch_*.bin`, also inside `cifar-10-batches-bin/`; or the Python "
               "version's `data_batch_1` .. `data_batch_5`, also inside `cifar-10-batches-py/`, "
               "[../training.md](../training.md))"),
      Declare("augment").field(&TrainConfig::augment).flag("--no-augment")
          .help("resize + center crop instead of random crops")
          .doc("real data: random resized crop + horizontal flip; `false`: resize + center crop"),
      Declare("workers").field(&TrainConfig::workers).min(0).typed_max(256).check(thread_count).pass()
          .flag("--workers").help("data loading threads")
          .doc("data loading threads; 0 decodes on the training thread (all of it counted as data wait)"),
      Declare("prefetch").field(&TrainConfig::prefetch).min(1).typed_max(64).unit("batches")
          .flag("--prefetch-factor").help("batches prefetched per worker")
          .doc("batches decoded ahead per worker (bounded queue)"),
      Declare("threads").field(&TrainConfig::threads).min(0).check(thread_count).pass().column("threads")
          .flag("--threads")
          .help("intra-op threads (0 = OMP_NUM_THREADS when set, else one per CPU this process may run on)")
          .doc("intra-op threads; 0 = one per CPU this process may run on (its affinity mask: `taskset`, a "
               "Slurm task's cpuset; at most its cgroup's CPU quota rounded up: `docker run --cpus`, "
               "`rlx.env.cpu_quota`). The value used is returned as `threads`, and a quota found as "
               "`cpu_quota` (CPUs)"),
      Declare("memory_format").choice(&TrainConfig::memory_format, models::memory_format_names).unset("")
          .pass()
          .column("memory_format").knob("contiguous")
          .default_text("this machine's calibrated layout, else `\"channels_last\"` for a model with a "
                        "convolution, else `\"contiguous\"`")
          .flag("--memory-format", "auto|channels_last|contiguous")
          .help("layout of images and conv weights (default auto: the faster of the two for this model on "
                "this machine, measured once and kept: rlx.calibrate; contiguous = run_train.py's default)")
          .doc("layout of the input and the 4-D weights: `\"channels_last\"` (NHWC; oneDNN and cuDNN "
               "convolutions run without reordering, PyTorch's performance guides recommend it on CPU and "
               "CUDA) or `\"contiguous\"` (NCHW, PyTorch's default and seed 000's `run_train.py` default); "
               "absent or `\"auto\"`: the layout this machine's calibration chose for the model, precision, "
               "input and threads, when one is stored (the layout rule, [../training.md](../training.md)). "
               "The layout used is returned as `memory_format`, the rule that chose it as "
               "`memory_format_rule` (`given`, `calibrated`, `default`) and why as `memory_format_choice`"),
      Declare("grad_accum").field(&TrainConfig::grad_accum).min(1).typed_max(100000).pass()
          .flag("--grad-accum-steps").help("optimizer step every N iterations")
          .doc("optimizer step every N iterations; the loss is divided by N"),
      Declare("cuda_graphs").field(&TrainConfig::cuda_graphs).dimension("graphs").column("cuda_graphs")
          .knob("off")
          .flag("--cuda-graphs")
          .help("capture the whole step as a CUDA graph after the warm-up and time its replays (CUDA, "
                "synthetic data)")
          .doc("CUDA: after the warm-up, capture the whole step (forward, loss, backward, optimizer, "
               "gradient scaler) once as a CUDA graph and time its replays "
               "([../training.md](../training.md#cuda-graphs)); refused on the CPU, with a dataset, "
               "`grad_accum > 1`, counters or `counter_iters`, and `warmup = 0` (an error naming why); with "
               "`amp` it needs LibTorch's `_fused_sgd_` (else `ok = false`)"),
      Declare("deterministic").field(&TrainConfig::deterministic).pass().flag("--deterministic")
          .help("deterministic algorithms")
          .doc("deterministic algorithms (warn-only for ops without one) and deterministic cuDNN"),
      Declare("cudnn_benchmark").field(&TrainConfig::cudnn_benchmark).pass().knob("off")
          .flag("--cudnn-benchmark").help("let cuDNN pick algorithms by timing")
          .doc("cuDNN picks convolution algorithms by timing them"),
      Declare("tf32").field(&TrainConfig::tf32).pass().knob("off").flag("--tf32")
          .help("let cuBLAS/cuDNN use TF32 for fp32 (CUDA; off by default)")
          .doc("CUDA: let cuBLAS and cuDNN run fp32 products on TF32 tensor cores; pinned either way and "
               "echoed, so the roofline judges fp32 against the right roof"),
      Declare("nvtx").field(&TrainConfig::nvtx).pass().flag("--nvtx")
          .help("NVTX range around each measured iteration (CUDA)")
          .doc("an NVTX range `rlx.train iteration N` around each timed iteration (CUDA builds); counted "
               "iterations are always in `train_step`"),
      Declare("lr").field(&TrainConfig::lr).min(0, true).pass().flag("--lr").help("learning rate")
          .doc("SGD learning rate (> 0)"),
      Declare("momentum").field(&TrainConfig::momentum).min(0).pass().flag("--momentum").help("SGD momentum")
          .doc("SGD momentum (>= 0)"),
      Declare("weight_decay").field(&TrainConfig::weight_decay).min(0).pass().flag("--weight-decay")
          .help("SGD weight decay").doc("SGD weight decay (>= 0)"),
      Declare("seed").field(&TrainConfig::seed).min(0).pass().flag("--seed").help("random seed")
          .doc("seeds weights, synthetic data, shuffling and augmentation"),
      Declare("input").field(&TrainConfig::input).unset(0).min(1).typed_max(4096).unit("pixels").pass()
          .column("input").default_text("224 (32 for CIFAR-10)").flag("--input")
          .help("image side (default 224; 32 for CIFAR-10)")
          .doc("image side in pixels"),
      Declare("classes").field(&TrainConfig::classes).unset(0).min(1).typed_max(1000000).pass()
          .default_text("dataset's; 1000 synthetic").flag("--classes")
          .help("classes (default the dataset's; 1000 synthetic)")
          .doc("classes of the model's last layer"),
      Declare("ranks").field(&TrainConfig::ranks).min(1).max(1024).unit("processes").dimension("{}ranks")
          .column("ranks").flag("--ranks")
          .help("data-parallel processes on c10d (Gloo on CPUs, NCCL on GPUs); --batch-size is per rank")
          .doc("data-parallel processes on c10d (Gloo on CPUs, NCCL on GPUs): `batch` is per rank, the "
               "global batch `ranks x batch`; the CPUs are split between the ranks unless `threads` is given "
               "(then per rank); refused with `device = \"cuda:N\"`, `min_stable`, `cuda_graphs` and "
               "counters; more ranks than CPUs or GPUs is `ok = false` "
               "([../training.md](../training.md#data-parallel))"),
      Declare("rendezvous_port").field(&TrainConfig::rendezvous_port).min(0).max(65535).pass().not_echoed()
          .flag("--rendezvous-port", "PORT")
          .help("--ranks: the port of the run's c10d TCPStore (default: a free one)")
          .doc("with `ranks > 1`: the port of the run's c10d TCPStore; 0 = a free one; in use: `ok = false` "
               "naming it"),
      Declare("label").field(&TrainConfig::label).unset("").default_text("none").names_runs()
          .flag("--label").help("free text stored with the result (no '/' or control characters)")
          .doc("free text echoed in the result"),
      Declare("counters").shape("counters", read_counters).default_value(nullptr).default_text("none")
          .excludes("cuda_graphs",
                    "cannot be combined with cuda_graphs: rlx has not verified that its counters see the "
                    "kernels of a replayed graph; count in a run without cuda_graphs",
                    [](const TrainRequest& q) { return q.counters && q.config.cuda_graphs; })
          .excludes("ranks",
                    "are collected in one process, and ranks > 1 trains in several: count in a run with "
                             "ranks=1",
                    [](const TrainRequest& q) { return q.counters && q.config.ranks > 1; })
          .pass().flag("--counters").flag_type("boolean")
          .help("collect hardware counters (in counted iterations after the timed ones)")
          .doc("`true` (default groups) or a list of groups: hardware counters of the counted iterations, "
               "which run after the timed ones (engine/counters, `rlx counters --list`)"),
      Declare("counter_iters").field(&TrainConfig::counter_iters).unset(-1).min(0).typed_max(100000)
          .not_echoed()
          .unit("iterations").column("counter_iters").default_text("what the counters need")
          .excludes("counters",
                    "must be >= 1 when counters are collected (they count the counted iterations)",
                    [](const TrainRequest& q) { return q.counters && q.config.counter_iters == 0; })
          .flag("--counter-iters", "N")
          .help("counted iterations after the timed ones (default: what the counters need; 1 under ncu)")
          .doc("counted iterations after the timed ones (>= 0; >= 1 with counters); default: one per CUPTI "
               "pass, 3 for perf_event, 0 without counters (1 when Nsight injects itself)"),
      Declare("min_stable").shape("min_stable", read_min_stable).default_value(false)
          .stored_in(&TrainConfig::min_stable)
          .excludes("target_ci",
                    "extends a fixed iters; with target_ci the run measures until steady by itself",
                    [](const TrainRequest& q) { return q.config.min_stable && targeted(q); })
          .flag("--min-stable").flag_type("boolean").help(min_stable_help())
          .doc("`true` or `{drift = 0.05, cv = 0.25, max_extra = 2 x iters}`: extend the timed iterations "
               "until the last `iters` are steady ([../training.md](../training.md#steady-state))"),
      Declare("pin_memory").field(&TrainConfig::pin_memory).column("pin_memory").flag("--pin-memory")
          .help("page-locked batches, asynchronous copies (CUDA with --data)")
          .doc("CUDA with a dataset: batches in page-locked memory, copied asynchronously (run_train.py's "
               "`--pin-memory`); elsewhere a `note`"),
      Declare("progress").field(&TrainConfig::progress).not_echoed().default_value(nullptr)
          .default_text("stderr is a terminal")
          .absent([](TrainRequest& q) { q.config.progress = ProgressBar::stderr_is_terminal(); })
          .doc("one-line progress bar on stderr (phase, iteration, images/s, ETA)"),
  };
}
// clang-format on

}  // namespace

const std::vector<OptionDecl>& option_decls() {
  static const std::vector<OptionDecl> decls = declare();
  return decls;
}

}  // namespace rlx::train
