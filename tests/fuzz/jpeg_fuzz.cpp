// jpeg_fuzz.cpp: libFuzzer target for the JPEG path of the ImageFolder loader (engine/train/
// image.cpp): header read, the pixel cap, DCT-scaled decode, then both crop policies and the
// resample + normalize transform on whatever decoded. The first two bytes choose the decode's
// minimum side and the output side, the rest is the file. A file that cannot be decoded must give
// nullopt (the loader counts it as skipped); a crash, a sanitizer report, an exception, an image
// whose pixel buffer does not match its size, or a non-finite output value is a finding.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

#include "train/image.h"

using namespace rlx::train;

namespace {
// Fuzzing memory stays bounded: 4 MP decodes in ~12 MB (the loader's own default is 100 MP).
constexpr int64_t kFuzzMaxPixels = 4'000'000;

void check_transform(const Image& img, const Rect& from, int out, bool flip) {
  std::vector<float> dst(static_cast<size_t>(3) * out * out);
  resample(img, from, out, flip, dst.data());
  for (float v : dst)
    if (!std::isfinite(v) || std::fabs(v) > 3.0f) std::abort();  // (0 - 0.485) / 0.229 .. (1 - 0.406) / 0.225
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const int min_side = data[0];      // 0: full size; else DCT scaling may shrink the decode
  const int out = 1 + data[1] % 64;  // output side of the transform
  const std::vector<uint8_t> bytes(data + 2, data + size);
  const auto img = decode_jpeg(bytes, min_side, kFuzzMaxPixels);
  if (!img) return 0;
  if (img->width <= 0 || img->height <= 0 || int64_t{img->width} * img->height > kFuzzMaxPixels ||
      img->rgb.size() != static_cast<size_t>(img->width) * img->height * 3)
    std::abort();
  std::mt19937_64 rng(size);
  const Rect crop = random_resized_crop(img->width, img->height, rng);
  if (crop.x < 0 || crop.y < 0 || crop.x + crop.w > img->width || crop.y + crop.h > img->height) std::abort();
  check_transform(*img, crop, out, (data[1] & 0x80) != 0);
  check_transform(*img, center_crop(img->width, img->height), out, false);
  return 0;
}
