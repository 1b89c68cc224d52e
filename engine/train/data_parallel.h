// data_parallel.h: data-parallel training on LibTorch's own distributed package, c10d (issue 52;
// docs/training.md "Data-parallel"). No LibTorch in this header.
//
// A run with ranks = N > 1 is N rank processes, each `rlx _rank`, each training the same model on
// its own slice of the global batch (ranks x batch). The rlx that asked for the run launches them
// and trains nothing itself: it serves the run's c10d TCPStore (the rendezvous, the run's
// configuration, each rank's result), starts the ranks (locally: this executable N times; under
// Slurm: one `srun` step of N tasks), watches them, and returns one result: rank 0's timings with
// every rank's figures as data (TrainResult::data_parallel). A rank that dies ends the others at
// once (rank_launch.cpp), so nothing waits on a collective that cannot complete.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "train/trainer.h"

namespace rlx::train {

// Where a rank process finds its run: the launcher puts these in each rank's environment.
inline constexpr const char* kRankStoreEnv = "RLX_RANK_STORE";        // host:port of the TCPStore
inline constexpr const char* kRanksEnv = "RLX_RANKS";                 // world size
inline constexpr const char* kRankEnv = "RLX_RANK";                   // this rank (local launch)
inline constexpr const char* kRankLauncherEnv = "RLX_RANK_LAUNCHER";  // "local" or "slurm"
inline constexpr const char* kRankCpusEnv = "RLX_RANK_CPUS";          // local: the CPUs this rank is pinned to

// The seconds a collective (or the rendezvous) may wait for a peer before it fails: the backstop
// for a peer that hangs without dying (one that dies is ended by the launcher at once).
inline constexpr int kCollectiveTimeoutS = 300;
// How long the launcher gives the other ranks to end after SIGTERM before SIGKILL.
inline constexpr int kRankGraceS = 5;

struct RankContext {
  int rank = 0;
  int ranks = 1;
  int local_rank = 0;  // the rank among those on this node (its GPU index on CUDA)
  std::string store_host;
  int store_port = 0;
  std::string launcher;  // "local" or "slurm"
};

// This process's rank from its environment (RLX_RANK, or SLURM_PROCID under srun); nullopt when
// the variables are absent. Throws std::invalid_argument when they are malformed.
std::optional<RankContext> rank_context_from_env();

// The launching side (rank_launch.cpp, in librlx_torch.so): starts config.ranks rank processes,
// waits for them and returns the run's result. ok = false with `error` naming the rank when one
// fails; rlx::util::Interrupted on Ctrl-C, after every rank has ended.
TrainResult train_ranks(const TrainConfig& config);

// The entry of `rlx _rank` (rank_process.cpp): reads the run from the store, trains this rank,
// posts its result; returns the process's exit status.
int run_rank_process();

// The configuration and result as they travel between the launcher and the ranks (wire.cpp).
nlohmann::json config_to_wire(const TrainConfig& config);
TrainConfig config_from_wire(const nlohmann::json& wire);
nlohmann::json result_to_wire(const TrainResult& result);
TrainResult result_from_wire(const nlohmann::json& wire);

// The run's data_parallel object from every rank's result (rank order): the per-rank figures, the
// totals and rank 0's communication shares (docs/training.md "Data-parallel"). Plain arithmetic,
// unit-tested.
nlohmann::json data_parallel_summary(const std::vector<TrainResult>& ranks, const std::string& launcher);

}  // namespace rlx::train
