// test_openmp_variables.cpp: engine/startup/openmp_choice: which values of the user's OpenMP
// variables libgomp would accept (issue 48 item 4: the others are treated as unset, with rlx's
// warning), and OMP_NUM_THREADS's counts, which get --threads' bound (item 3).
#include <catch2/catch.hpp>

#include "startup/openmp_choice.h"

using namespace rlx::startup;

TEST_CASE("a wait policy is ACTIVE or PASSIVE, in any case, spaces around allowed") {
  for (const char* v : {"active", "PASSIVE", "Passive", " active ", "ACTIVE\t"}) CHECK(valid_wait_policy(v));
  for (const char* v : {"", "abc", "banana", "-5", "1e23", "act", "passive now", "activex"}) {
    INFO(v);
    CHECK_FALSE(valid_wait_policy(v));
  }
}

TEST_CASE("a spin count is a whole number with an optional k, M, G or T, or INFINITE") {
  for (const char* v : {"0", "123", " 300000 ", "10k", "10 K", "2M", "1g", "3T", "infinite", "INFINITY", " Infinite "})
    CHECK(valid_spin_count(v));
  for (const char* v : {"", "abc", "banana", "-5", "1e23", "k", "5x", "10kk", "1.5", "+5", "99999999999999999999999"}) {
    INFO(v);
    CHECK_FALSE(valid_spin_count(v));
  }
}

TEST_CASE("OMP_NUM_THREADS is whole numbers from 1, comma-separated") {
  CHECK(thread_counts("4") == std::vector<long long>{4});
  CHECK(thread_counts(" 4 , 2 ") == std::vector<long long>{4, 2});
  CHECK(thread_counts("999") == std::vector<long long>{999});  // valid for OpenMP: the bound is rlx's
  CHECK(thread_counts("08") == std::vector<long long>{8});
  for (const char* v : {"", " ", "abc", "0", "-3", "4,", ",4", "4,,2", "+3", "2.5", "99999999999999999999999"}) {
    INFO(v);
    CHECK(thread_counts(v).empty());
    CHECK_FALSE(valid_thread_counts(v));
  }
}
