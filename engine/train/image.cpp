// image.cpp: see image.h.
#include "train/image.h"

#include <turbojpeg.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "util/text_file.h"

namespace rlx::train {
namespace {

struct TjHandle {
  tjhandle h;
  explicit TjHandle(bool compress) : h(compress ? tjInitCompress() : tjInitDecompress()) {}
  ~TjHandle() {
    if (h) tjDestroy(h);
  }
  TjHandle(const TjHandle&) = delete;
  TjHandle& operator=(const TjHandle&) = delete;
};

}  // namespace

int64_t max_image_pixels() {
  static const int64_t value = [] {
    const char* env = std::getenv("RLX_MAX_IMAGE_PIXELS");
    if (env == nullptr || *env == '\0') return kDefaultMaxImagePixels;
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(env, &end, 10);
    if (errno != 0 || *end != '\0' || v < 1)
      throw std::runtime_error(std::string("RLX_MAX_IMAGE_PIXELS must be a whole number of pixels >= 1, got '") + env +
                               "' (unset it for the default, " + std::to_string(kDefaultMaxImagePixels) + ")");
    return static_cast<int64_t>(v);
  }();
  return value;
}

std::pair<int, int> decode_size(int width, int height, int min_side) {
  int count = 0;
  tjscalingfactor* factors = tjGetScalingFactors(&count);
  int out_w = width, out_h = height;
  if (min_side <= 0 || factors == nullptr) return {out_w, out_h};
  for (int i = 0; i < count; ++i) {
    const tjscalingfactor f = factors[i];
    if (f.num > f.denom) continue;
    const int w = TJSCALED(width, f), h = TJSCALED(height, f);
    if (std::min(w, h) >= min_side && int64_t{w} * h < int64_t{out_w} * out_h) {
      out_w = w;
      out_h = h;
    }
  }
  return {out_w, out_h};
}

const char* failure_text(DecodeFailure::Kind kind) {
  switch (kind) {
    case DecodeFailure::Kind::unreadable:
      return "could not be read";
    case DecodeFailure::Kind::too_large:
      return "declare more pixels than the cap (RLX_MAX_IMAGE_PIXELS)";
    case DecodeFailure::Kind::truncated:
      return "are truncated (they end before their end-of-image marker)";
    case DecodeFailure::Kind::undecodable:
      break;
  }
  return "failed to decode";
}

namespace {
std::nullopt_t failed(DecodeFailure* f, DecodeFailure::Kind kind, std::string detail) {
  if (f != nullptr) *f = {kind, std::move(detail)};
  return std::nullopt;
}

// Where a JPEG's data stops: the offset just past its end-of-image marker (EOI, FF D9), or 0
// when the file ends first (it was cut). The markers are walked as the decoder reads them:
// segments by their lengths, and after each start-of-scan the entropy-coded data up to the next
// marker (FF 00 is a stuffed FF byte, FF D0..D7 restart markers, FF FF fill), so an FF D9 inside an
// EXIF thumbnail or a table does not count.
size_t jpeg_end(const unsigned char* d, size_t n) {
  if (n < 2 || d[0] != 0xFF || d[1] != 0xD8) return 0;
  size_t i = 2;
  while (i < n) {
    if (d[i] != 0xFF) {  // stray bytes between segments (libjpeg warns and skips them)
      ++i;
      continue;
    }
    while (i < n && d[i] == 0xFF) ++i;  // fill bytes before a marker
    if (i >= n) return 0;
    const unsigned char m = d[i++];
    if (m == 0xD9) return i;
    if (m == 0x00 || m == 0x01 || (m >= 0xD0 && m <= 0xD7)) continue;  // no length follows
    if (i + 2 > n) return 0;
    const size_t length = (size_t{d[i]} << 8) | d[i + 1];
    if (length < 2 || i + length > n) return 0;
    i += length;
    if (m != 0xDA) continue;
    // Entropy-coded data after a start-of-scan, up to the next real marker.
    while (i + 1 < n &&
           !(d[i] == 0xFF && d[i + 1] != 0x00 && d[i + 1] != 0xFF && (d[i + 1] < 0xD0 || d[i + 1] > 0xD7)))
      ++i;
    if (i + 1 >= n) return 0;
  }
  return 0;
}

std::optional<Image> decode_bytes(const unsigned char* data_in, size_t n, int min_side, int64_t max_pixels,
                                  DecodeFailure* failure) {
  using K = DecodeFailure::Kind;
  if (n == 0) return failed(failure, K::undecodable, "an empty file");
  TjHandle tj(false);
  if (!tj.h) return failed(failure, K::undecodable, "libjpeg-turbo could not start");
  int width = 0, height = 0, subsamp = 0, colorspace = 0;
  auto* data = const_cast<unsigned char*>(data_in);
  const auto size = static_cast<unsigned long>(n);
  if (tjDecompressHeader3(tj.h, data, size, &width, &height, &subsamp, &colorspace) != 0)
    return failed(failure, K::undecodable, tjGetErrorStr2(tj.h));
  if (width <= 0 || height <= 0)
    return failed(failure, K::undecodable,
                  "a header declaring " + std::to_string(width) + " x " + std::to_string(height));
  // The header alone decides: a bomb is refused before any pixel memory is allocated.
  if (int64_t{width} * height > max_pixels)
    return failed(failure, K::too_large,
                  std::to_string(width) + " x " + std::to_string(height) + " = " +
                      std::to_string(int64_t{width} * height) + " pixels, the cap is " +
                      std::to_string(max_pixels));
  // Decoding at 1/2..1/8 in the DCT is several times cheaper than decoding full size and
  // resizing afterwards.
  const auto [out_w, out_h] = decode_size(width, height, min_side);
  Image img;
  img.width = out_w;
  img.height = out_h;
  img.rgb.resize(static_cast<size_t>(out_w) * out_h * 3);
  if (tjDecompress2(tj.h, data, size, img.rgb.data(), out_w, 0, out_h, TJPF_RGB, TJFLAG_FASTDCT) != 0) {
    // Warnings (e.g. a few extraneous bytes) still give a complete image; errors do not.
    if (tjGetErrorCode(tj.h) != TJERR_WARNING) return failed(failure, K::undecodable, tjGetErrorStr2(tj.h));
    // A cut file is only a warning to libjpeg, which fills the missing rows with grey: a
    // truncated image would train as a grey one (PIL refuses it unless told otherwise). The
    // markers say whether the data reached its end.
    if (jpeg_end(data_in, n) == 0)
      return failed(failure, K::truncated,
                    "the file (" + std::to_string(n) + " bytes) ends before its end-of-image marker");
  }
  return img;
}

}  // namespace

std::optional<Image> decode_jpeg(const std::vector<uint8_t>& bytes, int min_side, int64_t max_pixels,
                                 DecodeFailure* failure) {
  return decode_bytes(bytes.data(), bytes.size(), min_side, max_pixels, failure);
}

std::optional<Image> decode_jpeg_file(const std::string& path, int min_side, int64_t max_pixels,
                                      DecodeFailure* failure) {
  using K = DecodeFailure::Kind;
  // One read of the whole file, by the one rule for a user's files (util/text_file.h): a FIFO or
  // a device among the JPEGs is counted as unreadable, never waited on or read forever.
  std::string text;
  try {
    text = util::read_user_file(path, "", kMaxJpegFileBytes);
  } catch (const util::UserFileError& e) {
    return failed(failure, K::unreadable,
                  e.problem == util::UserFileProblem::too_large
                      ? "larger than the " + e.detail + " a JPEG may have"
                      : e.detail);
  }
  return decode_bytes(reinterpret_cast<const unsigned char*>(text.data()), text.size(), min_side, max_pixels,
                      failure);
}

std::vector<uint8_t> encode_jpeg(const Image& image, int quality) {
  TjHandle tj(true);
  unsigned char* out = nullptr;
  unsigned long size = 0;
  if (!tj.h || tjCompress2(tj.h, image.rgb.data(), image.width, 0, image.height, TJPF_RGB, &out,
                           &size, TJSAMP_420, quality, 0) != 0) {
    if (out) tjFree(out);
    return {};
  }
  std::vector<uint8_t> bytes(out, out + size);
  tjFree(out);
  return bytes;
}

Rect random_resized_crop(int width, int height, std::mt19937_64& rng) {
  const double area = static_cast<double>(width) * height;
  std::uniform_real_distribution<double> scale(0.08, 1.0);
  std::uniform_real_distribution<double> log_ratio(std::log(3.0 / 4.0), std::log(4.0 / 3.0));
  for (int attempt = 0; attempt < 10; ++attempt) {
    const double target = area * scale(rng);
    const double ratio = std::exp(log_ratio(rng));
    const double w = std::round(std::sqrt(target * ratio));
    const double h = std::round(std::sqrt(target / ratio));
    if (w > 0 && h > 0 && w <= width && h <= height) {
      std::uniform_int_distribution<int> x(0, width - static_cast<int>(w));
      std::uniform_int_distribution<int> y(0, height - static_cast<int>(h));
      return {static_cast<double>(x(rng)), static_cast<double>(y(rng)), w, h};
    }
  }
  double w = width, h = height;
  const double ratio = w / h;
  if (ratio < 3.0 / 4.0) h = std::round(w / (3.0 / 4.0));
  else if (ratio > 4.0 / 3.0) w = std::round(h * (4.0 / 3.0));
  return {(width - w) / 2.0, (height - h) / 2.0, w, h};
}

Rect center_crop(int width, int height) {
  // Resizing the shorter side to out*256/224 and cropping out x out keeps 224/256 of the shorter
  // side in each direction, whatever `out` is.
  const double side = std::min(width, height) * 224.0 / 256.0;
  return {(width - side) / 2.0, (height - side) / 2.0, side, side};
}

void resample(const Image& image, const Rect& from, int out, bool flip, float* dst) {
  const size_t plane = static_cast<size_t>(out) * out;
  const double sx = from.w / out, sy = from.h / out;
  const int maxx = image.width - 1, maxy = image.height - 1;
  // Every output column samples the same two source columns with the same weight in every row,
  // so they are worked out once per image (indexed by destination column, which is where the flip
  // happens), and the rows only interpolate. Normalization is one multiply-add per value:
  // (v / 255 - mean) / std = v * scale + bias.
  struct Column {
    size_t x0, x1;  // byte offsets of the two source pixels in a row
    float wx;
  };
  std::vector<Column> columns(static_cast<size_t>(out));
  for (int ox = 0; ox < out; ++ox) {
    const double fx = std::clamp(from.x + (ox + 0.5) * sx - 0.5, 0.0, static_cast<double>(maxx));
    const int x0 = static_cast<int>(fx);
    const int x1 = std::min(x0 + 1, maxx);
    const int dx = flip ? out - 1 - ox : ox;
    columns[static_cast<size_t>(dx)] = {static_cast<size_t>(x0) * 3, static_cast<size_t>(x1) * 3,
                                        static_cast<float>(fx - x0)};
  }
  float scale[3], bias[3];
  for (int c = 0; c < 3; ++c) {
    scale[c] = static_cast<float>(1.0 / (255.0 * kStd[c]));
    bias[c] = static_cast<float>(-kMean[c] / kStd[c]);
  }
  // Rows: the horizontal pass of a source row gives 3 x out floats (planar), and consecutive
  // output rows mostly read the same two source rows (always, when the crop is enlarged), so the
  // last two are kept.
  const size_t row_bytes = static_cast<size_t>(image.width) * 3;
  const size_t row_floats = static_cast<size_t>(3) * out;
  std::vector<float> rows(2 * row_floats);
  int cached[2] = {-1, -1};
  const auto horizontal = [&](int y, float* h) {
    const uint8_t* src = image.rgb.data() + static_cast<size_t>(y) * row_bytes;
    for (int dx = 0; dx < out; ++dx) {
      const Column& col = columns[static_cast<size_t>(dx)];
      for (int c = 0; c < 3; ++c) {
        const float a = src[col.x0 + c], b = src[col.x1 + c];
        h[static_cast<size_t>(c) * out + dx] = a + (b - a) * col.wx;
      }
    }
  };
  // The horizontal pass of row y, computed unless one of the two slots holds it; the slot holding
  // `keep` is not overwritten.
  const auto row = [&](int y, int keep) -> const float* {
    for (int s = 0; s < 2; ++s)
      if (cached[s] == y) return &rows[s * row_floats];
    const int s = cached[0] == keep ? 1 : 0;
    horizontal(y, &rows[s * row_floats]);
    cached[s] = y;
    return &rows[s * row_floats];
  };
  for (int oy = 0; oy < out; ++oy) {
    const double fy = std::clamp(from.y + (oy + 0.5) * sy - 0.5, 0.0, static_cast<double>(maxy));
    const int y0 = static_cast<int>(fy);
    const int y1 = std::min(y0 + 1, maxy);
    const float wy = static_cast<float>(fy - y0);
    const float* top = row(y0, y1);
    const float* bottom = row(y1, y0);
    for (int c = 0; c < 3; ++c) {
      const float* t = top + static_cast<size_t>(c) * out;
      const float* b = bottom + static_cast<size_t>(c) * out;
      float* d = dst + static_cast<size_t>(c) * plane + static_cast<size_t>(oy) * out;
      for (int dx = 0; dx < out; ++dx) d[dx] = (t[dx] + (b[dx] - t[dx]) * wy) * scale[c] + bias[c];
    }
  }
}

}  // namespace rlx::train
