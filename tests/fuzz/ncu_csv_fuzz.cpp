// ncu_csv_fuzz.cpp: libFuzzer target for the Nsight Compute CSV reader (engine/counters/
// ncu_import.cpp, both layouts). Any input must either parse or throw NcuFormatError; a crash,
// an ASan report or another exception type is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "counters/ncu_import.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)rlx::counters::parse_ncu_csv(text, "fuzz.csv");
  } catch (const rlx::counters::NcuFormatError&) {
  }
  return 0;
}
