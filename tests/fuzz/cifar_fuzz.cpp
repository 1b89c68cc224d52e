// cifar_fuzz.cpp: libFuzzer target for the CIFAR-10 binary reader (engine/train/dataset.cpp): the
// input is written as data_batch_1.bin in a private folder, opened, and every record (up to 64)
// read and turned into a normalized 32x32 batch by the real Loader, with and without augmentation.
// A file that is not CIFAR-10 must be refused with std::runtime_error; a crash, a sanitizer report,
// another exception, a label outside 0..9 or a non-finite pixel is a finding.
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>

#include "train/dataset.h"

using namespace rlx::train;
namespace fs = std::filesystem;

namespace {
// Plain storage, so the folder can still be removed by the exit handler after static objects are
// destroyed.
char g_folder[4096];
void remove_folder() {
  std::error_code ec;
  fs::remove_all(g_folder, ec);
}

const fs::path& folder() {
  static const fs::path dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    fs::path d = fs::path(tmp && *tmp ? tmp : "/tmp") / ("rlx-cifar-fuzz-" + std::to_string(getpid()));
    fs::create_directories(d);
    std::snprintf(g_folder, sizeof g_folder, "%s", d.c_str());
    std::atexit(remove_folder);
    return d;
  }();
  return dir;
}

void check_batches(std::shared_ptr<const SampleSource> source, bool augment) {
  LoaderOptions opt;
  opt.batch = 2;
  opt.side = 32;
  opt.augment = augment;
  Loader loader(std::move(source), opt);
  for (int b = 0; b < 2; ++b) {
    const HostBatch batch = loader.next();
    for (int64_t label : batch.labels)
      if (label < 0 || label > 9) std::abort();
    for (float v : batch.images)
      if (!std::isfinite(v)) std::abort();
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  {
    std::ofstream out(folder() / "data_batch_1.bin", std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  std::shared_ptr<const SampleSource> source;
  try {
    source = open_cifar10(folder().string());
  } catch (const std::runtime_error&) {
    return 0;  // refused: the expected outcome for anything that is not CIFAR-10
  }
  if (source->size() == 0 || source->size() * 3073 != size || source->classes() != 10) std::abort();
  for (size_t i = 0; i < source->size() && i < 64; ++i) {
    if (source->label(i) < 0 || source->label(i) > 9) std::abort();
    const auto img = source->load(i, 0);
    if (!img || img->width != 32 || img->height != 32 || img->rgb.size() != 32 * 32 * 3) std::abort();
  }
  check_batches(source, true);
  check_batches(source, false);
  return 0;
}
