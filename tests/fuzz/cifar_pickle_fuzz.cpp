// cifar_pickle_fuzz.cpp: libFuzzer target for the restricted pickle reader and CIFAR-10's Python
// batch layout (engine/train/pickle.cpp, cifar_pickle.cpp). Any input must either parse or be
// refused with std::runtime_error; a crash, a sanitizer report (reading past the input, a leak),
// another exception, or a batch whose labels or pixels disagree is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

#include "train/cifar_pickle.h"
#include "train/pickle.h"

using namespace rlx::train;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    const pickle::Document doc = pickle::parse(bytes);
    // Every container's ids must name values of the document.
    for (size_t i = 0; i < doc.size(); ++i)
      for (size_t id : doc.at(i).items)
        if (id >= doc.size()) std::abort();
  } catch (const pickle::Error&) {
  }
  try {
    const CifarBatch b = parse_cifar_pickle(bytes, "fuzz");
    if (b.labels.empty() || b.pixels.size() != b.labels.size() * 3072) std::abort();
    for (uint8_t l : b.labels)
      if (l > 9) std::abort();
  } catch (const std::runtime_error&) {
    return 0;  // refused: the expected outcome for anything that is not a CIFAR-10 batch
  }
  return 0;
}
