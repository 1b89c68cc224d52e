// traits.cpp: the table of traits.h.
#include "startup/traits.h"

#include <array>
#include <utility>

namespace rlx::startup {
namespace {

struct Row {
  std::string_view name;
  CommandTraits traits;
};

// trains, supervised, line_buffered. `-e` and `run` may train (a script decides); `shard` is the
// command a Slurm array task runs, a sweep like `run`; `repl` trains when its user asks.
constexpr std::array kTable = {
    Row{"run", {true, true, true}},    Row{"-e", {true, true, true}},     Row{"shard", {true, true, true}},
    Row{"train", {true, false, true}}, Row{"peaks", {true, false, true}}, Row{"repl", {true, false, true}},
    // One rank of a data-parallel run (train/data_parallel.h), started by the rlx that launched it.
    Row{"_rank", {true, false, true}},
};

}  // namespace

CommandTraits traits_of(std::string_view name) {
  for (const Row& r : kTable)
    if (r.name == name) return r.traits;
  return {};
}

}  // namespace rlx::startup
