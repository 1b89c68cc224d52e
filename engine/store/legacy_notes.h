// legacy_notes.h (store): the start-up choices of runs stored before they were recorded as fields. Up to
// issue 47 a result held two notes in words, `openmp_wait` and `huge_pages`, which the report
// pattern-matched; those texts are frozen (no rlx writes them any more), and this file, next to
// the struct that replaced them, is the one place that reads them, so that an older database's
// report still counts its runs by kind.
#pragma once

#include <nlohmann/json.hpp>

namespace rlx::store {

// Adds `startup = {openmp_wait = {...}, huge_pages = {...}, from_notes = true}` to a stored result
// that has the old notes and no `startup`; leaves any other value as it is.
void complete_from_notes(nlohmann::json& result);

}  // namespace rlx::store
