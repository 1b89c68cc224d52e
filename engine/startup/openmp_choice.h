// openmp_choice.h: how LibTorch's OpenMP threads wait, chosen from the machine's load just before
// libgomp loads with LibTorch (docs/training.md, "OpenMP waiting"; the measurements:
// util/openmp_wait.h; when: tensor_library.h).
#pragma once

#include <string>
#include <vector>

#include "startup/startup.h"

namespace rlx::startup {

// How long the load is sampled, in milliseconds.
inline constexpr int kLoadSampleMs = 80;

// A value of one of the user's OpenMP variables that libgomp would refuse (with a warning of its
// own, and its default in place).
struct InvalidVariable {
  std::string name, value;
  std::string expected;  // what a valid value is, in words
};
// OMP_WAIT_POLICY (ACTIVE or PASSIVE, any case), GOMP_SPINCOUNT (a whole number with an optional
// k, M, G or T, or INFINITE / INFINITY) and OMP_NUM_THREADS (whole numbers from 1, comma-separated),
// each with spaces around it allowed, as libgomp reads them; the invalid ones, in that order.
std::vector<InvalidVariable> invalid_openmp_variables();
bool valid_wait_policy(const std::string& value);
bool valid_spin_count(const std::string& value);
bool valid_thread_counts(const std::string& value);
// The counts of a valid OMP_NUM_THREADS ("4,2" -> {4, 2}).
std::vector<long long> thread_counts(const std::string& value);

// Before libgomp loads: takes the invalid OpenMP variables out of the environment (each with one
// warning on stderr; recorded in `ignored`), then, for a command that trains, keeps the user's
// OMP_WAIT_POLICY / GOMP_SPINCOUNT or samples the load of the CPUs this process may run on for
// kLoadSampleMs and, when other processes used util::kSharedCores or more, sets GOMP_SPINCOUNT to
// a short spin (util::shared_spin_count of a spin timed here). Returns the choice and, in `set`,
// the variable it set (for the caller to take out of the environment once libgomp has read it).
OpenMpWait choose_openmp_wait(bool trains, std::string& set);

}  // namespace rlx::startup
