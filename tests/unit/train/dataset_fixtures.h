// dataset_fixtures.h: small datasets written by the tests themselves: an ImageFolder of generated
// JPEGs (optionally with corrupt files) and CIFAR-10 binary batches.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "train/image.h"

namespace rlx::test {

inline std::filesystem::path fresh_dir(const std::string& name) {
  const char* tmp = std::getenv("RLX_TEST_TMP");
  std::filesystem::path p = std::filesystem::path(tmp ? tmp : RLX_TEST_TMP) / name;
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p;
}

// root/train/class_<c>/img_<i>.jpg, each image a colour gradient distinct per class.
inline void write_image_folder(const std::filesystem::path& root, int classes, int per_class, int corrupt) {
  for (int c = 0; c < classes; ++c) {
    const auto dir = root / "train" / ("class_" + std::to_string(c));
    std::filesystem::create_directories(dir);
    for (int i = 0; i < per_class; ++i) {
      rlx::train::Image img;
      img.width = 48 + 8 * i;
      img.height = 40;
      img.rgb.resize(static_cast<size_t>(img.width) * img.height * 3);
      for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x) {
          uint8_t* p = &img.rgb[(static_cast<size_t>(y) * img.width + x) * 3];
          p[0] = static_cast<uint8_t>(x * 4);
          p[1] = static_cast<uint8_t>(y * 5);
          p[2] = static_cast<uint8_t>(80 * c);
        }
      const auto bytes = rlx::train::encode_jpeg(img, 85);
      std::ofstream(dir / ("img_" + std::to_string(i) + ".jpg"), std::ios::binary)
          .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
  }
  for (int k = 0; k < corrupt; ++k)
    std::ofstream(root / "train" / "class_0" / ("broken_" + std::to_string(k) + ".jpg")) << "this is not a JPEG";
}

// CIFAR-10 records: label (i % 10), then R, G, B planes filled with label*10, +1, +2.
inline void write_cifar(const std::filesystem::path& dir, int files, int records_per_file) {
  for (int f = 1; f <= files; ++f) {
    std::ofstream out(dir / ("data_batch_" + std::to_string(f) + ".bin"), std::ios::binary);
    for (int r = 0; r < records_per_file; ++r) {
      const uint8_t label = static_cast<uint8_t>(r % 10);
      std::vector<uint8_t> rec(3073);
      rec[0] = label;
      for (int c = 0; c < 3; ++c)
        for (int p = 0; p < 1024; ++p) rec[1 + c * 1024 + p] = static_cast<uint8_t>(label * 10 + c);
      out.write(reinterpret_cast<const char*>(rec.data()), static_cast<std::streamsize>(rec.size()));
    }
  }
}

}  // namespace rlx::test
