// records.h: what rlx stores about a run, as plain values (engine layer, no Lua, no SQL).
//
// A RunRecord is one row of `runs` plus its children (samples, counters, complexity, roofline
// points). Its optional columns live in one json object keyed by column name and are checked
// against run_columns(), the single list of those columns and their SQL types: a new run field
// is a schema step (schema.cpp), one line in run_columns(), and, when it comes from rlx.train's
// result table, one line in the result mapping of records.cpp. Nothing else changes.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace rlx::store {

using Json = nlohmann::json;

enum class ColumnType { Integer, Real, Text };

struct RunColumn {
  const char* name;
  ColumnType type;
};

// Every column of `runs` a RunRecord may set through `columns` (all but the identity columns id,
// study, environment_id, label, config_key, config, repeat, status and result).
const std::vector<RunColumn>& run_columns();

struct Counter {
  std::string name;
  double value = 0;
  std::string unit;
  std::string source;  // perf, cupti, ncu, ...; "<source>:derived" for derived figures
};

// What put_run does when the study already holds the run's slot (study, environment,
// configuration, repeat) or its label. A sweep replaces its own claim of the slot; `rlx train --db`
// must never replace a stored run silently (issue 48 item 2: a second unlabelled run replaced the
// first, and of two at once one was lost).
enum class IfStored {
  replace,        // the run replaces the slot's row (a sweep's claim, a rerun)
  next_repeat,    // the run takes the next free repeat of its configuration (MAX + 1, read and
                  // written in one write transaction, so two at once get two repeats); its label
                  // is the label given with "_run<repeat>" appended
  refuse,         // Error when a row holds the slot or the label in the study
  replace_label,  // as replace, and every row of the study with the same label is deleted first
};

struct RunRecord {
  std::string id;  // empty: put_run draws a new one
  std::string study;
  std::string environment_id;
  std::string label;
  Json config = Json::object();  // what rlx.train got, minus the label; its hash is the slot key
  int repeat = 1;
  std::string status = "ok";      // ok | failed | running | crashed
  Json columns = Json::object();  // any of run_columns() by name; absent or null = unknown
  Json result = Json::object();   // the rest of the training result, kept as JSON (no samples)
  std::vector<double> samples;    // seconds of each timed iteration, in order
  std::vector<Counter> counters;
  Json complexity;                // rlx.model.summary's table (per-layer list dropped), or null
  Json roofline = Json::array();  // roofline_points rows: level, precision, flops, ..., source
  IfStored if_stored = IfStored::replace;
  // Why the slot's earlier finished run is superseded by this one (result.rerun_because: the
  // sweep's rerun of an unsteady, contended or imprecise run); empty: "redone", or "failed".
  std::string rerun_because;
};

// A record from a training result (rlx.train's table as json) and the configuration it ran:
// status and error from result.ok/error, the matrix columns from the configuration, the timing,
// stability, memory-format and counter columns from the result (a field of the wrong type is
// left unknown), the samples, and the counters ({source, values, units, derived}, an array of
// {name, value, unit, source}, or a flat name -> number table). Identity fields stay empty.
RunRecord run_record(const Json& config, const Json& result);

// Counters in any of the forms run_record accepts; entries without a numeric value are skipped.
std::vector<Counter> counters_from(const Json& counters, const std::string& default_source);

// Columns describing the process that runs a slot: pid, host, and, inside a Slurm job,
// slurm_job_id (SLURM_ARRAY_JOB_ID, else SLURM_JOB_ID), slurm_array_task_id and node
// (SLURMD_NODENAME). Absent variables are left out.
Json process_columns();

// The column's value checked against its type: an integer column takes a whole number or a
// boolean (1/0), a real column a finite number, a text column a string. Returns null for null;
// throws Error naming the column otherwise.
Json checked_column(const RunColumn& column, const Json& value);

}  // namespace rlx::store
