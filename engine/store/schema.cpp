// schema.cpp: the versioned schema of an rlx study database, as a list of migrations.
//
// migrations()[i] takes a database from user_version i to i + 1; a new database runs them all.
// Never edit a released step: append a new one (documented in docs/storage.md), so a file written
// by an older rlx is upgraded in place when it is opened. Keys are chosen so that rows from
// different machines can be merged without renumbering: environments by content hash, studies by
// name, runs by a random 128-bit id, and every child row by its run id plus a natural key.
#include "store/store.h"

namespace rlx::store {

namespace {

// Version 1: environments, studies, runs with their samples, counters, complexity, and peaks.
const char* kV1 = R"sql(
CREATE TABLE environments (
  id TEXT PRIMARY KEY,              -- content hash of the captured environment (minus its time)
  label TEXT NOT NULL DEFAULT '',   -- the user's name for it ("rtx4090", "gcp-a100", "laptop")
  host TEXT, os TEXT, kernel TEXT, arch TEXT,
  cpu_model TEXT, cpu_cores INTEGER, cpu_threads INTEGER, cpu_flags TEXT, cpu_caches TEXT,
  memory_bytes INTEGER,
  gpu_name TEXT, gpu_memory_bytes INTEGER, gpu_driver TEXT,
  cuda TEXT, cudnn TEXT, torch TEXT, luajit TEXT, compiler TEXT, rlx TEXT,
  virtualization TEXT, container TEXT, cloud_zone TEXT, instance_type TEXT,
  info TEXT NOT NULL,               -- the whole captured table as JSON
  first_seen TEXT NOT NULL
);
CREATE TABLE studies (
  name TEXT PRIMARY KEY,
  created_at TEXT NOT NULL
);
CREATE TABLE runs (
  id TEXT PRIMARY KEY,              -- random 128-bit hex, unique across machines
  study TEXT NOT NULL REFERENCES studies(name),
  environment_id TEXT NOT NULL REFERENCES environments(id),
  label TEXT NOT NULL,              -- {env}_{model}_{precision}_bs{batch}_run{N}
  config_key TEXT NOT NULL,         -- content hash of the configuration (resume key)
  config TEXT NOT NULL,             -- the full configuration as JSON
  model TEXT, precision TEXT, batch INTEGER, device TEXT,
  repeat INTEGER NOT NULL DEFAULT 1,
  warmup INTEGER, iters INTEGER,
  status TEXT NOT NULL CHECK (status IN ('ok', 'failed', 'running')),
  error TEXT,
  started_at TEXT, finished_at TEXT,
  images_per_s REAL, seconds REAL,
  iter_mean_s REAL, iter_sd_s REAL, iter_median_s REAL, iter_min_s REAL, iter_max_s REAL,
  iter_p5_s REAL, iter_p95_s REAL,
  data_wait_s REAL, user_s REAL, sys_s REAL, max_rss_bytes INTEGER, device_max_bytes INTEGER,
  loss_first REAL, loss_last REAL, threads INTEGER,
  result TEXT                       -- the rest of the training result as JSON (no samples)
);
CREATE UNIQUE INDEX runs_slot ON runs(study, environment_id, config_key, repeat);
CREATE INDEX runs_label ON runs(label);
CREATE TABLE samples (
  run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  iter INTEGER NOT NULL,            -- 1-based measured iteration
  seconds REAL NOT NULL,
  PRIMARY KEY (run_id, iter)
) WITHOUT ROWID;
CREATE TABLE counters (
  run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  value REAL,
  unit TEXT NOT NULL DEFAULT '',
  source TEXT NOT NULL DEFAULT '',  -- cupti, perf, ncu, ... ("<source>:derived" for derived)
  PRIMARY KEY (run_id, source, name)
);
CREATE TABLE complexity (
  run_id TEXT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  params INTEGER,
  forward_flops REAL,               -- per image, as rlx.model.summary reports it
  train_flops REAL,                 -- per iteration, whole batch (forward + backward + optimizer)
  bytes REAL,                       -- per iteration, minimum memory traffic
  ai REAL,
  info TEXT                         -- the whole summary as JSON
);
CREATE TABLE peaks (
  environment_id TEXT NOT NULL REFERENCES environments(id),
  device TEXT NOT NULL,
  name TEXT NOT NULL,               -- dram_gbps, fp32_gflops, ...
  value REAL NOT NULL,
  unit TEXT NOT NULL DEFAULT '',
  source TEXT NOT NULL DEFAULT 'measured',
  spread REAL,                      -- relative spread over the repeats (fraction)
  measured_at TEXT NOT NULL,
  PRIMARY KEY (environment_id, device, name, source, measured_at)
);
)sql";

// Version 2: roofline points per run, each run's wall time (for dry-run estimates), and the
// memory footprint in complexity.
const char* kV2 = R"sql(
ALTER TABLE runs ADD COLUMN total_s REAL;         -- whole run incl. setup and warm-up (estimates)
ALTER TABLE complexity ADD COLUMN memory_bytes REAL;
ALTER TABLE complexity ADD COLUMN activation_bytes REAL;
CREATE TABLE roofline_points (
  run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  level TEXT NOT NULL,              -- dram, l2, l1
  precision TEXT NOT NULL DEFAULT '',
  flops REAL, bytes REAL, seconds REAL,
  ai REAL, gflops REAL, attainable_gflops REAL,
  bound TEXT, efficiency REAL,
  source TEXT NOT NULL CHECK (source IN ('measured', 'estimated')),
  PRIMARY KEY (run_id, level, precision, source)
);
CREATE INDEX runs_model ON runs(model, precision, batch);
)sql";


// Version 3: runs rebuilt (the only way SQLite changes a CHECK) so status may also be 'crashed',
// with the columns of issues 15-17: memory format, steady-state verdict, counted iterations,
// pinned memory, the sweep's order and each run's position in it, the claim a process takes
// before training (pid, host, claimed_at, attempt), and the Slurm job it ran in. Every older
// row is copied; the new columns are NULL for them. Runs with foreign keys off (store.cpp), so
// dropping the old table does not cascade to the children, which refer to "runs" by name.
const char* kV3 = R"sql(
CREATE TABLE runs_v3 (
  id TEXT PRIMARY KEY,
  study TEXT NOT NULL REFERENCES studies(name),
  environment_id TEXT NOT NULL REFERENCES environments(id),
  label TEXT NOT NULL,
  config_key TEXT NOT NULL,
  config TEXT NOT NULL,
  model TEXT, precision TEXT, batch INTEGER, device TEXT,
  repeat INTEGER NOT NULL DEFAULT 1,
  warmup INTEGER, iters INTEGER,
  status TEXT NOT NULL CHECK (status IN ('ok', 'failed', 'running', 'crashed')),
  error TEXT,
  started_at TEXT, finished_at TEXT,
  images_per_s REAL, seconds REAL,
  iter_mean_s REAL, iter_sd_s REAL, iter_median_s REAL, iter_min_s REAL, iter_max_s REAL,
  iter_p5_s REAL, iter_p95_s REAL,
  data_wait_s REAL, user_s REAL, sys_s REAL, max_rss_bytes INTEGER, device_max_bytes INTEGER,
  loss_first REAL, loss_last REAL, threads INTEGER,
  result TEXT,
  total_s REAL,
  memory_format TEXT,               -- 'channels_last' or 'contiguous'
  stable INTEGER,                   -- 1 = steady state reached, 0 = not (see drift, cv)
  drift REAL,                       -- relative change of the mean iteration time, 2nd half vs 1st
  cv REAL,                          -- coefficient of variation of the timed iterations
  counter_iters INTEGER,            -- counted iterations, run after the timed ones
  counted_iter_s REAL,              -- mean seconds of one counted iteration
  pin_memory INTEGER,               -- 1 = batches in page-locked host memory
  sweep_order TEXT,                 -- interleaved, random or grouped
  sweep_seed INTEGER,               -- the seed of a random order
  position INTEGER,                 -- 1-based place of the run in its sweep's order
  pid INTEGER, host TEXT,           -- the process that claimed (and ran) the slot
  claimed_at TEXT,                  -- UTC time of the claim
  attempt INTEGER,                  -- 1 for the first try of a slot, +1 per retry
  slurm_job_id TEXT, slurm_array_task_id INTEGER, node TEXT
);
INSERT INTO runs_v3 (id, study, environment_id, label, config_key, config, model, precision, batch, device, repeat,
  warmup, iters, status, error, started_at, finished_at, images_per_s, seconds, iter_mean_s, iter_sd_s,
  iter_median_s, iter_min_s, iter_max_s, iter_p5_s, iter_p95_s, data_wait_s, user_s, sys_s, max_rss_bytes,
  device_max_bytes, loss_first, loss_last, threads, result, total_s)
SELECT id, study, environment_id, label, config_key, config, model, precision, batch, device, repeat,
  warmup, iters, status, error, started_at, finished_at, images_per_s, seconds, iter_mean_s, iter_sd_s,
  iter_median_s, iter_min_s, iter_max_s, iter_p5_s, iter_p95_s, data_wait_s, user_s, sys_s, max_rss_bytes,
  device_max_bytes, loss_first, loss_last, threads, result, total_s FROM runs;
DROP TABLE runs;
ALTER TABLE runs_v3 RENAME TO runs;
CREATE UNIQUE INDEX runs_slot ON runs(study, environment_id, config_key, repeat);
CREATE INDEX runs_label ON runs(label);
CREATE INDEX runs_model ON runs(model, precision, batch);
)sql";

// Version 4: a measured roofline point names the counters it came from (cupti, perf_event, or
// ncu for counters imported with rlx import-ncu), so figures and Table 2 can say so.
const char* kV4 = R"sql(
ALTER TABLE roofline_points ADD COLUMN counters_source TEXT;
)sql";

// Version 5: what a run's numbers mean (issue 21) and how a slot died (issue 25). The image side
// used; the protocol of a precision-targeted run (target_ci) and how it stopped (stop_reason: ci,
// max_iters, max_seconds or fixed), the achieved relative 95 % CI half-width of the mean iteration
// time (ci_rel, from the stored samples) and the warm-up iterations actually run; the noise floor
// timed just before the run (floor_gflops, the FMA probe) and the contention seen during its timed
// iterations (other_cpu: cores other processes used; steal_cpu: cores the hypervisor took;
// cpu_share: the run's CPU time over wall x threads; contended = 1 when flagged); and, for a slot
// whose process died, every death's cause as a JSON array (deaths).
const char* kV5 = R"sql(
ALTER TABLE runs ADD COLUMN input INTEGER;
ALTER TABLE runs ADD COLUMN target_ci REAL;
ALTER TABLE runs ADD COLUMN stop_reason TEXT;
ALTER TABLE runs ADD COLUMN ci_rel REAL;
ALTER TABLE runs ADD COLUMN warmup_used INTEGER;
ALTER TABLE runs ADD COLUMN floor_gflops REAL;
ALTER TABLE runs ADD COLUMN other_cpu REAL;
ALTER TABLE runs ADD COLUMN steal_cpu REAL;
ALTER TABLE runs ADD COLUMN cpu_share REAL;
ALTER TABLE runs ADD COLUMN contended INTEGER;
ALTER TABLE runs ADD COLUMN deaths TEXT;
)sql";

// Version 6 (issues 30 and 33): what a study measured about its machine before training, and
// each invocation's plan. A calibration is one model's probe on one device of an environment: the
// memory layout chosen by timing both on this machine, the margin, and the seconds per image the
// plan starts from. A plan is one `rlx run` of a study against its budget: the estimate printed
// before the first run, the configurations it left out and the command that adds them, and the
// wall time it took.
const char* kV6 = R"sql(
CREATE TABLE calibrations (
  environment_id TEXT NOT NULL REFERENCES environments(id),
  device TEXT NOT NULL,             -- cpu, cuda
  model TEXT NOT NULL,
  precision TEXT NOT NULL,
  input INTEGER NOT NULL,
  memory_format TEXT NOT NULL,      -- the layout chosen: channels_last or contiguous
  per_image_s REAL NOT NULL,        -- the chosen layout's seconds per image at the probe's batch
  margin REAL,                      -- the other layout's seconds per image over the chosen one's
  probe TEXT,                       -- JSON: batch, each layout's samples, the probe's seconds
  measured_at TEXT NOT NULL,
  PRIMARY KEY (environment_id, device, model, precision, input)
);
CREATE TABLE plans (
  id TEXT PRIMARY KEY,              -- random 128-bit hex, unique across machines
  study TEXT NOT NULL REFERENCES studies(name),
  environment_id TEXT NOT NULL REFERENCES environments(id),
  started_at TEXT NOT NULL,
  budget_s REAL,                    -- NULL: no budget
  estimate_s REAL,                  -- the one estimate printed before the first run
  planned INTEGER,                  -- runs the plan kept
  left_out INTEGER,                 -- runs it left out for the budget
  wall_s REAL,                      -- the study's wall time, once it finished
  detail TEXT                       -- JSON: the estimate's parts, the left-out runs, the command that adds them
);
)sql";

// Version 7: a CPU calibration is kept per thread count. The faster layout and the seconds per
// image the plan starts from depend on the threads a run trains with (a cgroup quota, a cpuset or
// --threads changes them), so a machine used with 1 and with 2 threads keeps both probes instead
// of measuring again and overwriting each time. threads is the probe's intra-op thread count on a
// CPU, 0 on a GPU and for probes from before it was recorded (those serve any thread count).
const char* kV7 = R"sql(
CREATE TABLE calibrations_v7 (
  environment_id TEXT NOT NULL REFERENCES environments(id),
  device TEXT NOT NULL,
  model TEXT NOT NULL,
  precision TEXT NOT NULL,
  input INTEGER NOT NULL,
  threads INTEGER NOT NULL DEFAULT 0,  -- the probe's intra-op threads on a CPU; 0: a GPU, or not recorded
  memory_format TEXT NOT NULL,
  per_image_s REAL NOT NULL,
  margin REAL,
  probe TEXT,
  measured_at TEXT NOT NULL,
  PRIMARY KEY (environment_id, device, model, precision, input, threads)
);
INSERT INTO calibrations_v7 (environment_id, device, model, precision, input, threads, memory_format, per_image_s,
  margin, probe, measured_at)
  SELECT environment_id, device, model, precision, input,
    CASE WHEN device = 'cpu' AND json_valid(probe) THEN coalesce(json_extract(probe, '$.threads'), 0) ELSE 0 END,
    memory_format, per_image_s, margin, probe, measured_at FROM calibrations;
DROP TABLE calibrations;
ALTER TABLE calibrations_v7 RENAME TO calibrations;
)sql";

// Version 8 (issue 46): whether a run's timed steps were replays of one captured CUDA graph
// (rlx.train's cuda_graphs; 1/0, NULL for older rows), so a study can compare eager and graphed
// steps as it compares precisions.
const char* kV8 = R"sql(
ALTER TABLE runs ADD COLUMN cuda_graphs INTEGER;
)sql";

// Version 9 (issue 52): data-parallel runs. `ranks` is the number of data-parallel processes
// (1 for one process; NULL for older rows, which were all one process), `global_batch` the images
// one step trains over all ranks (ranks x batch; `batch` stays per rank). The per-rank figures are
// in the result JSON's `data_parallel` object: one row per run, whatever its ranks.
const char* kV9 = R"sql(
ALTER TABLE runs ADD COLUMN ranks INTEGER;
ALTER TABLE runs ADD COLUMN global_batch INTEGER;
)sql";

// Version 10 (issue 55): every attempt of a slot stays. A rerun (a run that ended unsteady,
// contended or above its CI target, trained again within the budget), a forced redo and the retry
// of a failed run replace the slot's row in `runs`, as before, so everything that reads `runs`
// (the means, export, merge's slot rule) is unchanged; the row they replace is kept here, in the
// same transaction: its runs columns and result as one JSON object (`row`, so a later runs column
// needs no step here), its timed iterations' seconds (`samples`), its attempt number, the run
// that superseded it, why and when. The few columns the drift analysis orders and groups by are
// columns of their own.
const char* kV10 = R"sql(
CREATE TABLE run_attempts (
  id TEXT PRIMARY KEY,              -- the superseded run's id, as it was in runs
  study TEXT NOT NULL REFERENCES studies(name),
  environment_id TEXT NOT NULL REFERENCES environments(id),
  config_key TEXT NOT NULL,
  repeat INTEGER NOT NULL,
  label TEXT NOT NULL,
  attempt INTEGER NOT NULL,         -- 1 for the slot's first try, +1 per try after it
  status TEXT NOT NULL,             -- ok or failed
  images_per_s REAL,
  started_at TEXT, finished_at TEXT,
  floor_gflops REAL,                -- the noise floor timed just before it
  superseded_by TEXT NOT NULL,      -- the id of the run that took its place in runs
  why TEXT NOT NULL,                -- unsteady, contended, CI above the accepted, failed, redone
  superseded_at TEXT NOT NULL,
  row TEXT NOT NULL,                -- every runs column of it as JSON (result parsed)
  samples TEXT NOT NULL             -- its timed iterations' seconds, a JSON array
);
CREATE INDEX run_attempts_slot ON run_attempts(study, environment_id, config_key, repeat);
)sql";

}  // namespace

const std::vector<std::string>& migrations() {
  static const std::vector<std::string> steps = {kV1, kV2, kV3, kV4, kV5, kV6, kV7, kV8, kV9, kV10};
  return steps;
}

int current_schema_version() { return static_cast<int>(migrations().size()); }

}  // namespace rlx::store
