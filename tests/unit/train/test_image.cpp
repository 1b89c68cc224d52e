// test_image.cpp: JPEG decode/encode, the crop rectangles and the resample + normalize transform.
#include <catch2/catch.hpp>

#include <cmath>

#include "train/image.h"

using namespace rlx::train;

namespace {
Image solid(int w, int h, uint8_t r, uint8_t g, uint8_t b) {
  Image img;
  img.width = w;
  img.height = h;
  img.rgb.resize(static_cast<size_t>(w) * h * 3);
  for (size_t i = 0; i < img.rgb.size(); i += 3) {
    img.rgb[i] = r;
    img.rgb[i + 1] = g;
    img.rgb[i + 2] = b;
  }
  return img;
}
}  // namespace

TEST_CASE("a JPEG round trip keeps size and colour") {
  const auto bytes = encode_jpeg(solid(40, 30, 200, 100, 50), 95);
  REQUIRE(!bytes.empty());
  const auto img = decode_jpeg(bytes, 0);
  REQUIRE(img);
  CHECK(img->width == 40);
  CHECK(img->height == 30);
  CHECK(std::abs(int(img->rgb[0]) - 200) <= 3);
  CHECK(std::abs(int(img->rgb[1]) - 100) <= 3);
  CHECK(std::abs(int(img->rgb[2]) - 50) <= 3);
}

TEST_CASE("decoding downscales in the DCT but keeps the shorter side >= min_side") {
  const auto bytes = encode_jpeg(solid(256, 128, 10, 20, 30));
  const auto img = decode_jpeg(bytes, 32);
  REQUIRE(img);
  CHECK(img->height >= 32);
  CHECK(img->height < 128);  // 1/2 .. 1/4 fits
  CHECK(img->width == img->height * 2);
}

TEST_CASE("garbage and empty input are not images") {
  CHECK_FALSE(decode_jpeg({'n', 'o', 't', ' ', 'j', 'p', 'g'}, 0));
  CHECK_FALSE(decode_jpeg({}, 0));
  CHECK_FALSE(decode_jpeg_file("/nonexistent/x.jpg", 0));
}

TEST_CASE("center_crop keeps 224/256 of the shorter side, centred") {
  const Rect r = center_crop(512, 256);
  CHECK(r.w == Approx(224));
  CHECK(r.h == Approx(224));
  CHECK(r.x == Approx((512 - 224) / 2.0));
  CHECK(r.y == Approx(16));
}

TEST_CASE("random_resized_crop stays inside the image with a bounded aspect ratio") {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200; ++i) {
    const Rect r = random_resized_crop(100, 60, rng);
    CHECK(r.x >= 0);
    CHECK(r.y >= 0);
    CHECK(r.x + r.w <= 100);
    CHECK(r.y + r.h <= 60);
    CHECK(r.w * r.h >= 0.079 * 100 * 60 - 2 * (r.w + r.h));  // rounding to whole pixels
    CHECK(r.w / r.h <= 4.0 / 3.0 + 0.1);
    CHECK(r.w / r.h >= 3.0 / 4.0 - 0.1);
  }
}

TEST_CASE("resample normalizes per channel and flips horizontally") {
  const Image img = solid(8, 8, 255, 0, 128);
  std::vector<float> out(3 * 4 * 4);
  resample(img, {0, 0, 8, 8}, 4, false, out.data());
  CHECK(out[0] == Approx((1.0 - kMean[0]) / kStd[0]));
  CHECK(out[16] == Approx((0.0 - kMean[1]) / kStd[1]));
  CHECK(out[32 + 15] == Approx((128 / 255.0 - kMean[2]) / kStd[2]));

  // Left half black, right half white: flipping moves the white to the left.
  Image half = solid(8, 2, 0, 0, 0);
  for (int y = 0; y < 2; ++y)
    for (int x = 4; x < 8; ++x)
      for (int c = 0; c < 3; ++c) half.rgb[(y * 8 + x) * 3 + c] = 255;
  std::vector<float> plain(3 * 2 * 2), flipped(3 * 2 * 2);
  resample(half, {0, 0, 8, 2}, 2, false, plain.data());
  resample(half, {0, 0, 8, 2}, 2, true, flipped.data());
  CHECK(plain[0] < plain[1]);
  CHECK(flipped[0] > flipped[1]);
  CHECK(flipped[0] == Approx(plain[1]));
}

namespace {
// A real JPEG whose frame header (SOF0) is rewritten to declare width x height: what a
// decompression bomb looks like (the entropy data is that of the small image).
std::vector<uint8_t> declaring(int width, int height) {
  auto bytes = encode_jpeg(solid(16, 16, 10, 20, 30), 90);
  for (size_t i = 0; i + 8 < bytes.size(); ++i) {
    if (bytes[i] == 0xFF && bytes[i + 1] == 0xC0) {
      bytes[i + 5] = static_cast<uint8_t>(height >> 8);
      bytes[i + 6] = static_cast<uint8_t>(height & 0xFF);
      bytes[i + 7] = static_cast<uint8_t>(width >> 8);
      bytes[i + 8] = static_cast<uint8_t>(width & 0xFF);
      return bytes;
    }
  }
  FAIL("no SOF0 marker in the encoded JPEG");
  return bytes;
}
}  // namespace

// Issue 17 item 7: a 1.6 KB file declaring 60000 x 60000 took 8.4 GB and 17 s per sample.
TEST_CASE("a JPEG declaring more pixels than the cap is refused from its header") {
  CHECK(kDefaultMaxImagePixels == 100'000'000);
  CHECK_FALSE(decode_jpeg(declaring(60000, 60000), 224));  // 3.6e9 pixels > 1e8 (the default)
  CHECK_FALSE(decode_jpeg(declaring(60000, 60000), 0, kDefaultMaxImagePixels));
  // The cap is on width x height: 200 x 200 = 40000 pixels passes a cap of 40000, not 39999.
  CHECK_FALSE(decode_jpeg(declaring(200, 200), 0, 39999));
  const auto img = decode_jpeg(encode_jpeg(solid(200, 200, 1, 2, 3), 90), 0, 40000);
  REQUIRE(img);
  CHECK(img->width == 200);
}

TEST_CASE("decode size: the smallest libjpeg-turbo scale that still covers the target, in 64 bits") {
  // 640 x 480 for a 224 target: 3/8 gives 240 x 180 (too small), 1/2 gives 320 x 240.
  CHECK(decode_size(640, 480, 224) == std::pair<int, int>{320, 240});
  CHECK(decode_size(4000, 3000, 224) == std::pair<int, int>{500, 375});  // 1/8
  CHECK(decode_size(640, 480, 0) == std::pair<int, int>{640, 480});       // no target: full size
  CHECK(decode_size(100, 80, 224) == std::pair<int, int>{100, 80});       // already smaller
  // 60000 x 60000 = 3.6e9 overflowed an int, so no scale was ever chosen (full-size decode).
  CHECK(decode_size(60000, 60000, 224) == std::pair<int, int>{7500, 7500});
}

TEST_CASE("a JPEG cut short is refused as truncated, not decoded with grey rows") {
  // Issue 48 item 8: JPEGs cut to 300 of 6,525 bytes trained as images (libjpeg only warns).
  Image gradient = solid(96, 64, 0, 0, 0);
  for (size_t i = 0; i < gradient.rgb.size(); ++i) gradient.rgb[i] = static_cast<uint8_t>(i * 7);
  const auto whole = encode_jpeg(gradient, 90);
  REQUIRE(decode_jpeg(whole, 0));
  for (size_t keep : {whole.size() - 2, whole.size() / 2, size_t{700}}) {
    if (keep >= whole.size()) continue;
    const std::vector<uint8_t> cut(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(keep));
    DecodeFailure why;
    CHECK_FALSE(decode_jpeg(cut, 0, max_image_pixels(), &why));
    CHECK((why.kind == DecodeFailure::Kind::truncated || why.kind == DecodeFailure::Kind::undecodable));
    if (why.kind == DecodeFailure::Kind::truncated)
      CHECK(why.detail ==
            "the file (" + std::to_string(keep) + " bytes) ends before its end-of-image marker");
  }
  // Cut in the middle of the scan data, the header is whole: truncated, by the markers.
  const std::vector<uint8_t> half(whole.begin(),
                                  whole.begin() + static_cast<std::ptrdiff_t>(whole.size() / 2));
  DecodeFailure why;
  CHECK_FALSE(decode_jpeg(half, 0, max_image_pixels(), &why));
  CHECK(why.kind == DecodeFailure::Kind::truncated);
  CHECK(std::string(failure_text(why.kind)) == "are truncated (they end before their end-of-image marker)");
  // Bytes after the end-of-image marker are not a cut: the image decodes.
  std::vector<uint8_t> trailing = whole;
  trailing.insert(trailing.end(), {0, 0, 0, 0});
  CHECK(decode_jpeg(trailing, 0));
}
