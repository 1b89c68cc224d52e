// openmp_choice.cpp: libgomp's waiting chosen from the machine's load before it loads
// (openmp_choice.h). libgomp reads its variables once, as it loads (with LibTorch, on first use:
// tensor_library.h), so setting GOMP_SPINCOUNT then is enough: no restart.
#include "startup/openmp_choice.h"

#include <dlfcn.h>
#include <strings.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <limits>

#include "util/env_value.h"
#include "util/openmp_wait.h"
#include "util/printable.h"

namespace rlx::startup {
namespace {

constexpr const char* kSpin = "GOMP_SPINCOUNT";
constexpr const char* kPolicy = "OMP_WAIT_POLICY";
constexpr const char* kThreads = "OMP_NUM_THREADS";

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\n\v\f\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\n\v\f\r") - first + 1);
}

bool all_digits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// A whole number that fits an unsigned long long ("" and "-5" do not).
bool whole_number(const std::string& s) {
  if (!all_digits(s)) return false;
  errno = 0;
  std::strtoull(s.c_str(), nullptr, 10);
  return errno == 0;
}

// libgomp was loaded before rlx could choose (linked in, as in the unit tests): its variables are read.
bool libgomp_loaded() {
  return dlopen("libgomp.so.1", RTLD_NOW | RTLD_NOLOAD) != nullptr;
}

}  // namespace

bool valid_wait_policy(const std::string& value) {
  const std::string v = trimmed(value);
  return strcasecmp(v.c_str(), "active") == 0 || strcasecmp(v.c_str(), "passive") == 0;
}

bool valid_spin_count(const std::string& value) {
  std::string v = trimmed(value);
  if (strcasecmp(v.c_str(), "infinite") == 0 || strcasecmp(v.c_str(), "infinity") == 0) return true;
  if (!v.empty() && std::string("kKmMgGtT").find(v.back()) != std::string::npos)
    v = trimmed(v.substr(0, v.size() - 1));
  return whole_number(v);
}

bool valid_thread_counts(const std::string& value) {
  const std::vector<long long> n = thread_counts(value);
  return !n.empty();
}

std::vector<long long> thread_counts(const std::string& value) {
  std::vector<long long> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = value.find(',', start);
    const std::string item =
        trimmed(value.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (!whole_number(item)) return {};
    const unsigned long long n = std::strtoull(item.c_str(), nullptr, 10);
    if (n == 0 || n > static_cast<unsigned long long>(std::numeric_limits<long long>::max())) return {};
    out.push_back(static_cast<long long>(n));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

std::vector<InvalidVariable> invalid_openmp_variables() {
  std::vector<InvalidVariable> out;
  auto check = [&](const char* name, bool (*valid)(const std::string&), const char* expected) {
    const char* v = util::env_value(name);
    if (v != nullptr && !valid(v)) out.push_back({name, v, expected});
  };
  check(kPolicy, valid_wait_policy, "not a wait policy (ACTIVE or PASSIVE)");
  check(kSpin, valid_spin_count,
        "not a spin count (a whole number with an optional k, M, G or T, or INFINITE)");
  check(kThreads, valid_thread_counts, "not a thread count (a whole number from 1, or a list such as 4,2)");
  return out;
}

OpenMpWait choose_openmp_wait(bool trains, std::string& set) {
  OpenMpWait w;
  set.clear();
  // Set to nothing is unset for rlx (util/env_value.h), as the shell's `VAR= cmd` means it; libgomp
  // would call an empty OMP_NUM_THREADS invalid, so it never sees one.
  for (const char* name : {kPolicy, kSpin, kThreads}) {
    const char* v = std::getenv(name);
    if (v != nullptr && *v == '\0') unsetenv(name);
  }
  for (const InvalidVariable& bad : invalid_openmp_variables()) {
    std::cerr << "rlx: ignoring " << bad.name << "=\"" << util::printable(bad.value) << "\": " << bad.expected
              << "; rlx goes on as if it were unset\n";
    w.ignored[bad.name] = bad.value;
    unsetenv(bad.name.c_str());
  }
  if (!trains) return w;
  if (const char* policy = util::env_value(kPolicy)) w.environment[kPolicy] = policy;
  if (const char* count = util::env_value(kSpin)) w.environment[kSpin] = count;
  if (!w.environment.empty()) {
    w.choice = "environment";
    return w;
  }
  if (libgomp_loaded()) {
    w.choice = "failed";
    w.error = "libgomp was loaded before rlx could choose";
    return w;
  }
  w.sample_ms = kLoadSampleMs;
  w.other_cores = util::other_cores(kLoadSampleMs);
  if (w.other_cores < 0) {
    w.choice = "load_unknown";
  } else if (w.other_cores < util::kSharedCores) {
    w.choice = "libgomp_default";
  } else {
    w.spin_ns = util::spin_ns();
    w.spin_count = util::shared_spin_count(util::kSharedSpinWaitNs, w.spin_ns);
    setenv(kSpin, std::to_string(w.spin_count).c_str(), 1);
    set = kSpin;
    w.choice = "short_spin";
  }
  return w;
}

}  // namespace rlx::startup
