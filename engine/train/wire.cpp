// wire.cpp: a run's configuration and result as JSON between the launcher and its rank processes
// (data_parallel.h), and the run's data_parallel summary. No LibTorch.
//
// The wire form names every field as it is in the struct, so a rank reads back exactly what the
// launcher wrote; it is not the stored form (trainer.h to_json), which is what users read.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "train/data_parallel.h"
#include "train/options.h"

namespace rlx::train {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(StabilityRule, max_drift, max_cv)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Summary, mean, sd, median, min, max, p5, p95)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Stability, drift, cv, stable, judged, drift_t, drift_significant,
                                                extended_iters)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CommFigures, backend, rank, host, pid, cpus, allreduce_s, exposed_comm_s,
                                                buffer_broadcast_s, grad_bytes_per_step, buckets, bucket_cap_bytes,
                                                param_bytes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(
    TrainResult, ok, error, error_cause, error_fix_option, error_fix_value, images_per_s, seconds, wall_s, iter_s, samples, stability, warmup_samples, warmup_used,
    warmup_settled, stop_reason, ci_rel, other_cpu, steal_cpu, cpu_share, contended, cpu_quota, threads_from,
    counter_iters, counted_samples, counted_iter_s, pin_memory, data_wait_s, user_s, sys_s, page_faults,
    max_rss_bytes, max_rss_scope, device_max_bytes, loss_first, loss_last, threads, device, precision,
    memory_format, skipped_files, skipped_first, dataset_size, dataset_classes, data_kind, note, model_name, input,
    classes, ranks, comm)

// TrainConfig's fields that are no option of rlx.train's (min_stable's table, warm-up "auto");
// the options' fields cross by their declarations (train/options.h), so a new option needs no
// line here. (nlohmann's macro cannot be used for TrainConfig: the stored form's
// to_json(TrainConfig, TrainResult) in this namespace hides the serializer it would define.)
#define RLX_TRAIN_CONFIG_INTERNAL_FIELDS(X) X(stability) X(max_extra_iters) X(warmup_auto)

nlohmann::json config_to_wire(const TrainConfig& config) {
  nlohmann::json j;
  for (const OptionDecl& d : option_decls())
    if (d.get) j[d.name] = d.get(config);
#define RLX_PUT(field) j[#field] = config.field;
  RLX_TRAIN_CONFIG_INTERNAL_FIELDS(RLX_PUT)
#undef RLX_PUT
  return j;
}

TrainConfig config_from_wire(const nlohmann::json& wire) {
  TrainConfig c;
  for (const OptionDecl& d : option_decls())
    if (d.set && wire.contains(d.name)) d.set(c, wire.at(d.name));
#define RLX_TAKE(field) \
  if (wire.contains(#field)) wire.at(#field).get_to(c.field);
  RLX_TRAIN_CONFIG_INTERNAL_FIELDS(RLX_TAKE)
#undef RLX_TAKE
  return c;
}

nlohmann::json result_to_wire(const TrainResult& result) {
  nlohmann::json j = result;
  // A NaN (ci_rel of one sample) is not JSON: the wire carries null and the reader its default.
  if (!std::isfinite(result.ci_rel)) j["ci_rel"] = nullptr;
  return j;
}

TrainResult result_from_wire(const nlohmann::json& wire) {
  nlohmann::json j = wire;
  for (auto& [key, value] : j.items())
    if (value.is_null()) value = nlohmann::json(TrainResult{}).at(key);
  TrainResult r = j.get<TrainResult>();
  if (wire.contains("ci_rel") && wire["ci_rel"].is_null()) r.ci_rel = std::nan("");
  return r;
}

namespace {

nlohmann::json rank_row(const TrainResult& r) {
  return {{"rank", r.comm.rank},
          {"host", r.comm.host},
          {"pid", r.comm.pid},
          {"cpus", r.comm.cpus},
          {"device", r.device},
          {"threads", r.threads},
          {"images_per_s", r.images_per_s},
          {"iter_mean_s", r.iter_s.mean},
          {"allreduce_s", r.comm.allreduce_s},
          {"exposed_comm_s", r.comm.exposed_comm_s},
          {"buffer_broadcast_s", r.comm.buffer_broadcast_s},
          {"max_rss_bytes", r.max_rss_bytes},
          {"device_max_bytes", r.device_max_bytes}};
}

double share(double part, double whole) {
  return whole > 0 ? part / whole : 0;
}

}  // namespace

nlohmann::json data_parallel_summary(const std::vector<TrainResult>& ranks, const std::string& launcher) {
  if (ranks.empty()) throw std::invalid_argument("data_parallel_summary needs the ranks' results");
  const TrainResult& r0 = ranks.front();
  nlohmann::json per_rank = nlohmann::json::array();
  int64_t total_rss = 0, total_device = 0;
  for (const TrainResult& r : ranks) {
    per_rank.push_back(rank_row(r));
    total_rss += std::max<int64_t>(r.max_rss_bytes, 0);
    total_device += std::max<int64_t>(r.device_max_bytes, 0);
  }
  const bool cuda = r0.device_max_bytes >= 0;
  return {{"ranks", static_cast<int64_t>(ranks.size())},
          {"backend", r0.comm.backend},
          {"launcher", launcher},
          {"threads_per_rank", r0.threads},
          {"reducer", "c10d::Reducer"},
          {"bucket_cap_bytes", r0.comm.bucket_cap_bytes},
          {"buckets", r0.comm.buckets},
          {"grad_bytes_per_step", r0.comm.grad_bytes_per_step},
          {"param_bytes", r0.comm.param_bytes},
          {"allreduce_s", r0.comm.allreduce_s},
          {"exposed_comm_s", r0.comm.exposed_comm_s},
          {"buffer_broadcast_s", r0.comm.buffer_broadcast_s},
          {"comm_share", share(r0.comm.allreduce_s, r0.iter_s.mean)},
          {"exposed_share", share(r0.comm.exposed_comm_s, r0.iter_s.mean)},
          {"total_max_rss_bytes", total_rss},
          {"total_device_max_bytes", cuda ? total_device : -1},
          {"per_rank", per_rank}};
}

}  // namespace rlx::train

namespace rlx::train {

namespace {

std::optional<int> env_int(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return std::nullopt;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  if (*end != '\0' || n < 0 || n > 1 << 20)
    throw std::invalid_argument(fmt::format("{}='{}' is not a rank number", name, v));
  return static_cast<int>(n);
}

}  // namespace

std::optional<RankContext> rank_context_from_env() {
  const char* store = std::getenv(kRankStoreEnv);
  if (!store || !*store) return std::nullopt;
  RankContext ctx;
  const std::string where = store;
  const auto colon = where.rfind(':');
  if (colon == std::string::npos || colon == 0)
    throw std::invalid_argument(fmt::format("{}='{}' is not host:port", kRankStoreEnv, where));
  ctx.store_host = where.substr(0, colon);
  char* end = nullptr;
  const long port = std::strtol(where.c_str() + colon + 1, &end, 10);
  if (*end != '\0' || port <= 0 || port > 65535)
    throw std::invalid_argument(fmt::format("{}='{}' is not host:port", kRankStoreEnv, where));
  ctx.store_port = static_cast<int>(port);
  const char* launcher = std::getenv(kRankLauncherEnv);
  ctx.launcher = launcher && *launcher ? launcher : "local";
  const auto ranks = env_int(kRanksEnv);
  // Under srun, Slurm numbers the tasks of the step (SLURM_PROCID, and SLURM_LOCALID on the node).
  const auto rank = ctx.launcher == "slurm" ? env_int("SLURM_PROCID") : env_int(kRankEnv);
  if (!ranks || !rank || *rank >= *ranks)
    throw std::invalid_argument(fmt::format("a rank needs {} and {} (rank < ranks)", kRanksEnv,
                                            ctx.launcher == "slurm" ? "SLURM_PROCID" : kRankEnv));
  ctx.ranks = *ranks;
  ctx.rank = *rank;
  ctx.local_rank = ctx.launcher == "slurm" ? env_int("SLURM_LOCALID").value_or(0) : ctx.rank;
  return ctx;
}

}  // namespace rlx::train
