// cifar_pickle.cpp: see cifar_pickle.h.
#include "train/cifar_pickle.h"

#include <fmt/format.h>

#include <stdexcept>

#include "train/pickle.h"
#include "util/text_file.h"

namespace rlx::train {

namespace {

constexpr size_t kImageBytes = 3 * 32 * 32;
constexpr std::uintmax_t kMaxFileBytes = std::uintmax_t{1} << 30;

struct Refusal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The images: a C-order uint8 array of N x 3072 (or N x 3 x 32 x 32, the same bytes).
std::string_view image_bytes(const pickle::Value& data) {
  if (data.kind != pickle::Kind::Array || !data.built)
    throw Refusal(fmt::format("'data' is a {}, not a numpy array", pickle::kind_name(data.kind)));
  if (data.dtype != "u1")
    throw Refusal(fmt::format("'data' holds '{}' elements, not uint8 ('u1')", data.dtype));
  const auto& s = data.shape;
  const bool flat = s.size() == 2 && s[1] == static_cast<int64_t>(kImageBytes);
  const bool planes = s.size() == 4 && s[1] == 3 && s[2] == 32 && s[3] == 32;
  if (!flat && !planes) {
    std::string shape;
    for (const auto d : s) shape += (shape.empty() ? "" : " x ") + std::to_string(d);
    throw Refusal(fmt::format("'data' is {} ({}), not N x 3072 (32 x 32 RGB images, or N x 3 x 32 x 32)",
                              shape.empty() ? "a scalar" : shape,
                              s.size() == 1 ? "1 dimension" : fmt::format("{} dimensions", s.size())));
  }
  if (data.fortran && s[0] > 1) throw Refusal("'data' is in Fortran order (a CIFAR-10 batch is in C order)");
  return data.data;
}

// Element i of an integer array, little-endian ('<', '|' or '=' on the little-endian machines rlx
// runs on); signed types are sign-extended.
int64_t array_int(const pickle::Value& a, size_t i) {
  const size_t size = a.dtype[1] - '0';
  uint64_t v = 0;
  for (size_t b = 0; b < size; ++b)
    v |= static_cast<uint64_t>(static_cast<unsigned char>(a.data[i * size + b])) << (8 * b);
  if (a.dtype[0] == 'i' && size < 8 && (v >> (8 * size - 1)) & 1) v |= ~uint64_t{0} << (8 * size);
  return static_cast<int64_t>(v);
}

// The labels: a list (or tuple) of N integers, or a 1-D integer numpy array, each 0..9.
std::vector<uint8_t> labels_of(const pickle::Document& doc, const pickle::Value& v, size_t n) {
  std::vector<int64_t> raw;
  if (v.kind == pickle::Kind::List || v.kind == pickle::Kind::Tuple) {
    for (size_t id : v.items) {
      const pickle::Value& x = doc.at(id);
      if (x.kind != pickle::Kind::Int)
        throw Refusal(fmt::format("'labels' holds a {}", pickle::kind_name(x.kind)));
      raw.push_back(x.integer);
    }
  } else if (v.kind == pickle::Kind::Array && v.built && v.shape.size() == 1 &&
             (v.dtype[0] == 'i' || v.dtype[0] == 'u')) {
    if (v.byte_order == '>' && v.dtype[1] != '1') throw Refusal("'labels' is a big-endian array");
    for (size_t i = 0; i < static_cast<size_t>(v.shape[0]); ++i) raw.push_back(array_int(v, i));
  } else {
    throw Refusal(fmt::format("'labels' is a {}, not a list of integers", pickle::kind_name(v.kind)));
  }
  if (raw.size() != n) throw Refusal(fmt::format("{} labels for {} images", raw.size(), n));
  std::vector<uint8_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    if (raw[i] < 0 || raw[i] > 9)
      throw Refusal(fmt::format("label {} is {} (CIFAR-10 labels are 0..9)", i, raw[i]));
    out[i] = static_cast<uint8_t>(raw[i]);
  }
  return out;
}

CifarBatch interpret(const pickle::Document& doc) {
  const pickle::Value& root = doc.root();
  if (root.kind != pickle::Kind::Dict)
    throw Refusal(fmt::format("the pickle holds a {}, not a dict", pickle::kind_name(root.kind)));
  const pickle::Value* data = doc.find(root, "data");
  const pickle::Value* labels = doc.find(root, "labels");
  if (!data || !labels) {
    const bool cifar100 = doc.find(root, "fine_labels") != nullptr;
    throw Refusal(cifar100 ? "it has 'fine_labels': a CIFAR-100 batch (rlx reads CIFAR-10)"
                           : "the dict has no 'data' and 'labels' entries");
  }
  const std::string_view pixels = image_bytes(*data);
  const size_t n = pixels.size() / kImageBytes;
  if (n == 0) throw Refusal("it holds no images");
  CifarBatch b;
  b.labels = labels_of(doc, *labels, n);
  b.pixels.assign(pixels.begin(), pixels.end());
  return b;
}

}  // namespace

CifarBatch parse_cifar_pickle(std::string_view bytes, const std::string& name) {
  try {
    return interpret(pickle::parse(bytes));
  } catch (const pickle::Error& e) {
    throw std::runtime_error(fmt::format("'{}' is not a CIFAR-10 Python batch: {}", name, e.what()));
  } catch (const Refusal& e) {
    throw std::runtime_error(fmt::format("'{}' is not a CIFAR-10 Python batch: {}", name, e.what()));
  }
}

CifarBatch read_cifar_pickle(const std::string& path) {
  // The one rule for a user's files (util/text_file.h): regular, not blocking, at most 1 GiB.
  std::string bytes;
  try {
    bytes = util::read_user_file(path, "the CIFAR-10 batch", kMaxFileBytes);
  } catch (const util::UserFileError& e) {
    if (e.problem != util::UserFileProblem::too_large) throw;
    throw std::runtime_error(fmt::format(
        "'{}' is not a CIFAR-10 Python batch: larger than {} (a batch is about 31 MB)", path, e.detail));
  }
  return parse_cifar_pickle(bytes, path);
}

}  // namespace rlx::train
