// model_spec_fuzz.cpp: libFuzzer target for the JSON model-spec parser (engine/models/spec_json.cpp
// and the validation in model_spec.cpp): bytes -> JSON -> ModelSpec. Malformed JSON and invalid
// specs must be std::invalid_argument (or nlohmann's parse_error); anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "models/model_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const nlohmann::json j = nlohmann::json::parse(data, data + size, nullptr, false);
  if (j.is_discarded()) return 0;
  try {
    (void)rlx::models::from_option(j, 10, 32);
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
