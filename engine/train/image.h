// image.h: the per-sample image pipeline of the real-data sources, without LibTorch: JPEG decode
// with libjpeg-turbo (DCT-domain downscaling when the image is much larger than needed), the
// crop + bilinear resize + flip + normalize transform written straight into a CHW float batch, and
// the two crop policies (training: random resized crop; evaluation: resize then center crop).
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace rlx::train {

// 8-bit RGB, interleaved rows (HWC).
struct Image {
  int width = 0, height = 0;
  std::vector<uint8_t> rgb;
};

// A source rectangle in image pixels (may be fractional after DCT scaling).
struct Rect {
  double x = 0, y = 0, w = 0, h = 0;
};

// ImageNet channel statistics, as torchvision's transforms.Normalize in seed 000's driver.
inline constexpr float kMean[3] = {0.485f, 0.456f, 0.406f};
inline constexpr float kStd[3] = {0.229f, 0.224f, 0.225f};

// The most pixels (width x height) a JPEG may declare in its header before rlx refuses to decode
// it: a decompression bomb (a 1.6 KB file declaring 60000 x 60000) would otherwise take gigabytes
// and seconds per sample. 100 megapixels by default (ImageNet's largest images are ~ 20 MP), or
// RLX_MAX_IMAGE_PIXELS from the environment; throws std::runtime_error naming the variable when
// that is not a whole number >= 1.
inline constexpr int64_t kDefaultMaxImagePixels = 100'000'000;
int64_t max_image_pixels();

// The size a width x height JPEG is decoded at: the smallest libjpeg-turbo scaling factor
// (tjGetScalingFactors: 1/8 .. 1) whose shorter side still covers min_side (0: full size).
// Computed in 64 bits: 60000 x 60000 overflows an int.
std::pair<int, int> decode_size(int width, int height, int min_side);

// Why a file gave no image (issue 25 finding 8: all three were called "failed to decode"; issue
// 48 item 8: a cut file decoded, grey below the cut, and trained as an image).
struct DecodeFailure {
  enum class Kind { unreadable, too_large, undecodable, truncated };
  Kind kind = Kind::undecodable;
  std::string detail;  // "Permission denied", "60000 x 60000 = 3600000000 pixels", libjpeg's message
};
// "could not be read", "declare more pixels than the cap", "failed to decode", "are truncated"
// (plural: counted).
const char* failure_text(DecodeFailure::Kind kind);

// The most bytes a JPEG file may have (a 100-megapixel JPEG at the highest quality is well under
// it): a bigger file is no image of a dataset, and is not read whole into memory.
inline constexpr uint64_t kMaxJpegFileBytes = uint64_t{256} << 20;

// Decodes a JPEG file at decode_size(). Returns nullopt when the file cannot be read (a FIFO or a
// device is not read: the one rule of util/text_file.h), is not a decodable JPEG, ends before its
// end-of-image marker (truncated: libjpeg would fill the missing rows with grey), or declares more
// than max_pixels pixels (the caller counts it as skipped); `failure` (when given) then says which
// and why.
std::optional<Image> decode_jpeg_file(const std::string& path, int min_side,
                                      int64_t max_pixels = max_image_pixels(),
                                      DecodeFailure* failure = nullptr);
std::optional<Image> decode_jpeg(const std::vector<uint8_t>& bytes, int min_side,
                                 int64_t max_pixels = max_image_pixels(), DecodeFailure* failure = nullptr);

// Encodes RGB pixels as a JPEG (quality 1..100); used by tests and tools to make datasets.
std::vector<uint8_t> encode_jpeg(const Image& image, int quality = 90);

// torchvision RandomResizedCrop's rectangle: area in [8%, 100%], aspect in [3/4, 4/3] (log-uniform),
// ten tries, then the central crop clamped to that aspect range.
Rect random_resized_crop(int width, int height, std::mt19937_64& rng);
// Resize(out * 256 / 224) then CenterCrop(out), expressed as a source rectangle.
Rect center_crop(int width, int height);

// Samples `from` (bilinear, pixel centres aligned) into an out x out CHW float image at `dst`
// (3 * out * out floats), flipped horizontally when asked, normalized with kMean/kStd.
void resample(const Image& image, const Rect& from, int out, bool flip, float* dst);

}  // namespace rlx::train
