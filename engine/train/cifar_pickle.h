// cifar_pickle.h: CIFAR-10's Python layout (cifar-10-batches-py: data_batch_1 .. data_batch_5 and
// test_batch, as torchvision.datasets.CIFAR10 reads them), read without Python. Each file is a
// pickled dict with 'data' (a numpy uint8 array of N x 3072: per image 1024 red, 1024 green,
// 1024 blue values, rows of 32) and 'labels' (N integers 0..9); 'batch_label' and 'filenames'
// are ignored. The pickle is parsed by pickle.h, which never runs code.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rlx::train {

struct CifarBatch {
  std::vector<uint8_t> labels;  // N values, 0..9
  std::vector<uint8_t> pixels;  // N x 3072, in the order of the binary layout (R plane, G, B)
};

// Parses one batch file's bytes; `name` names it in messages. Throws std::runtime_error
// "'NAME' is not a CIFAR-10 Python batch: WHY" for a truncated, hostile or different file.
CifarBatch parse_cifar_pickle(std::string_view bytes, const std::string& name);
// Reads and parses a batch file (at most 1 GiB: a CIFAR-10 batch is about 31 MB).
CifarBatch read_cifar_pickle(const std::string& path);

}  // namespace rlx::train
