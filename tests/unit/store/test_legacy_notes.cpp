// test_legacy_notes.cpp: engine/store/legacy_notes: the notes rlx wrote in results until issue 47
// become the fields the report counts. Each text below is one rlx wrote (tests/e2e/trust and the
// databases of /work/shared/data hold them).
#include <catch2/catch.hpp>

#include "store/legacy_notes.h"

using nlohmann::json;
using rlx::store::complete_from_notes;

namespace {
json complete(json r) {
  complete_from_notes(r);
  return r;
}
}  // namespace

TEST_CASE("an idle and a shared machine's OpenMP notes become their fields") {
  const json idle = complete({{"openmp_wait", "openmp: libgomp's default waiting (spin, then sleep): 0.3 other cores busy "
                                              "at start"}});
  CHECK(idle["startup"]["openmp_wait"] == json({{"choice", "libgomp_default"}, {"other_cores", 0.3}}));
  CHECK(idle["startup"]["from_notes"] == true);
  const json shared = complete(
      {{"openmp_wait",
        "openmp: GOMP_SPINCOUNT=9733, a short spin before sleeping (0.27 ms at 27.74 ns a spin, measured): 2.0 other "
        "cores busy at start (a long spin holds a core the other thread needs)"}});
  CHECK(shared["startup"]["openmp_wait"] ==
        json({{"choice", "short_spin"}, {"spin_count", 9733}, {"other_cores", 2.0}, {"spin_ns", 27.74}}));
}

TEST_CASE("the user's OpenMP settings and the other OpenMP notes") {
  CHECK(complete({{"openmp_wait", "openmp: waiting left as the environment sets it (OMP_WAIT_POLICY=active, "
                                  "GOMP_SPINCOUNT=123)"}})["startup"]["openmp_wait"] ==
        json({{"choice", "environment"}, {"environment", {{"OMP_WAIT_POLICY", "active"}, {"GOMP_SPINCOUNT", "123"}}}}));
  CHECK(complete({{"openmp_wait", "openmp: libgomp's default waiting (the machine's load could not be read)"}})
            ["startup"]["openmp_wait"]["choice"] == "load_unknown");
  CHECK(complete({{"openmp_wait", "openmp: libgomp's default waiting (not chosen in this program)"}})
            ["startup"]["openmp_wait"]["choice"] == "not_chosen");
  const json odd = complete({{"openmp_wait", "openmp: something else"}})["startup"]["openmp_wait"];
  CHECK(odd == json({{"choice", "unknown"}, {"text", "openmp: something else"}}));
}

TEST_CASE("each huge-pages note becomes its choice") {
  auto choice = [](const std::string& note) { return complete({{"huge_pages", note}})["startup"]["huge_pages"]; };
  CHECK(choice("thp: not asked (kernel mode madvise; RLX_HUGE_PAGES=1 asks)") == json({{"choice", "not_asked"}}));
  CHECK(choice("thp: the training heap in transparent huge pages (RLX_HUGE_PAGES=1, kernel mode madvise: the "
               "commands that train start with GLIBC_TUNABLES=glibc.malloc.hugetlb=1)")["choice"] == "asked");
  CHECK(choice("thp: the heap in transparent huge pages (kernel mode always: given unasked)")["choice"] == "always");
  CHECK(choice("thp: none (kernel mode never)")["choice"] == "never");
  CHECK(choice("thp: left as the environment sets the allocator (GLIBC_TUNABLES=glibc.malloc.hugetlb=0)") ==
        json({{"choice", "environment"}, {"environment", "GLIBC_TUNABLES=glibc.malloc.hugetlb=0"}}));
  CHECK(choice("thp: not asked (/sys/kernel/mm/transparent_hugepage/enabled unreadable)")["choice"] == "mode_unknown");
}

TEST_CASE("a result with fields, or without notes, is left as it is") {
  const json with = {{"startup", {{"openmp_wait", {{"choice", "short_spin"}}}}},
                     {"openmp_wait", "openmp: libgomp's default waiting (not chosen in this program)"}};
  CHECK(complete(with) == with);
  CHECK(complete({{"ok", true}}) == json({{"ok", true}}));
  CHECK(complete(json()) == json());
  CHECK(complete({{"openmp_wait", 3}}) == json({{"openmp_wait", 3}}));
}
