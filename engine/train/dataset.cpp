// dataset.cpp: see dataset.h.
#include "train/dataset.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <numeric>
#include <stdexcept>

#include "train/cifar_pickle.h"
#include "util/text_file.h"

namespace fs = std::filesystem;

namespace rlx::train {
namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

class ImageFolder : public SampleSource {
 public:
  ImageFolder(std::string root, std::vector<std::string> files, std::vector<int64_t> labels, int64_t classes)
      : root_(std::move(root)), files_(std::move(files)), labels_(std::move(labels)), classes_(classes) {}
  size_t size() const override { return files_.size(); }
  int64_t classes() const override { return classes_; }
  int64_t label(size_t i) const override { return labels_[i]; }
  std::optional<Image> load(size_t i, int min_side, DecodeFailure* failure) const override {
    std::optional<Image> img = decode_jpeg_file(files_[i], min_side, max_pixels_, failure);
    if (!img && failure != nullptr) failure->detail = "'" + files_[i] + "': " + failure->detail;
    return img;
  }
  std::string kind() const override { return "imagefolder"; }
  std::string root() const override { return root_; }

 private:
  std::string root_;
  std::vector<std::string> files_;
  std::vector<int64_t> labels_;
  int64_t classes_;
  // A JPEG declaring more pixels is refused from its header and counted as skipped; read (and the
  // environment variable checked) on the thread that opens the folder, not in a worker.
  int64_t max_pixels_ = max_image_pixels();
};

constexpr size_t kCifarSide = 32, kCifarRecord = 1 + 3 * kCifarSide * kCifarSide;

class Cifar10 : public SampleSource {
 public:
  Cifar10(std::string root, std::vector<uint8_t> records) : root_(std::move(root)), records_(std::move(records)) {}
  size_t size() const override { return records_.size() / kCifarRecord; }
  int64_t classes() const override { return 10; }
  int64_t label(size_t i) const override { return records_[i * kCifarRecord]; }
  std::optional<Image> load(size_t i, int, DecodeFailure*) const override {
    const uint8_t* planes = &records_[i * kCifarRecord + 1];
    constexpr size_t plane = kCifarSide * kCifarSide;
    Image img;
    img.width = img.height = static_cast<int>(kCifarSide);
    img.rgb.resize(plane * 3);
    for (size_t p = 0; p < plane; ++p)
      for (size_t c = 0; c < 3; ++c) img.rgb[p * 3 + c] = planes[c * plane + p];
    return img;
  }
  std::string kind() const override { return "cifar10"; }
  std::string root() const override { return root_; }

 private:
  std::string root_;
  std::vector<uint8_t> records_;
};

// The CIFAR-10 batch files in dir: data_batch_*.bin (binary version), or else data_batch_<n>
// without an extension (Python version), sorted.
std::vector<fs::path> cifar_files(const fs::path& dir, bool python) {
  std::vector<fs::path> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (!e.is_regular_file() || name.rfind("data_batch_", 0) != 0) continue;
    const std::string rest = name.substr(11);
    const bool digits = !rest.empty() && rest.find_first_not_of("0123456789") == std::string::npos;
    if (python ? digits : e.path().extension() == ".bin") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

struct CifarFiles {
  std::string root;
  std::vector<fs::path> files;
  bool python = false;
};

// Binary batches in dir or dir/cifar-10-batches-bin, else Python batches in dir or
// dir/cifar-10-batches-py (the folders the two archives extract to).
CifarFiles find_cifar(const std::string& dir) {
  const std::pair<const char*, bool> places[] = {
      {"", false}, {"cifar-10-batches-bin", false}, {"", true}, {"cifar-10-batches-py", true}};
  for (const auto& [sub, python] : places) {
    const fs::path d = *sub ? fs::path(dir) / sub : fs::path(dir);
    auto files = cifar_files(d, python);
    if (!files.empty()) return {d.string(), std::move(files), python};
  }
  return {};
}

// A binary batch is 30,730,000 bytes; a file over this is no batch, and is not read whole.
constexpr uint64_t kMaxCifarBinaryBytes = uint64_t{1} << 30;

void append_binary(const fs::path& f, std::vector<uint8_t>& records) {
  const std::string bytes = util::read_user_file(f.string(), "the CIFAR-10 batch", kMaxCifarBinaryBytes);
  if (bytes.empty() || bytes.size() % kCifarRecord != 0)
    throw std::runtime_error(
        fmt::format("'{}' is not CIFAR-10 binary: {} bytes is not a whole number of "
                    "{}-byte records",
                    f.string(), bytes.size(), kCifarRecord));
  for (size_t r = 0; r < bytes.size(); r += kCifarRecord)
    if (const auto label = static_cast<uint8_t>(bytes[r]); label > 9)
      throw std::runtime_error(fmt::format("'{}' record {} has label {} (CIFAR-10 labels are 0..9)",
                                           f.string(), r / kCifarRecord, label));
  records.insert(records.end(), bytes.begin(), bytes.end());
}

// A Python batch turned into binary records (label, then the same 3072 bytes).
void append_python(const fs::path& f, std::vector<uint8_t>& records) {
  const CifarBatch b = read_cifar_pickle(f.string());
  const size_t image = kCifarRecord - 1;
  for (size_t i = 0; i < b.labels.size(); ++i) {
    records.push_back(b.labels[i]);
    records.insert(records.end(), b.pixels.begin() + static_cast<std::ptrdiff_t>(i * image),
                   b.pixels.begin() + static_cast<std::ptrdiff_t>((i + 1) * image));
  }
}

// The entries of a folder of an ImageFolder, or an error naming it: an unreadable class folder
// used to be an empty class, silently.
std::vector<fs::directory_entry> listing(const fs::path& dir) {
  std::vector<fs::directory_entry> out;
  std::error_code ec;
  fs::directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) out.push_back(*it);
  if (ec)
    throw std::runtime_error(
        fmt::format("cannot list the folder '{}' of the dataset: {}", dir.string(), ec.message()));
  return out;
}

}  // namespace

std::unique_ptr<SampleSource> open_image_folder(const std::string& root) {
  std::error_code ec;
  if (!fs::exists(root, ec))
    throw std::runtime_error(fmt::format("dataset not found: '{}' does not exist", root));
  fs::path base = fs::path(root) / "train";
  if (!fs::is_directory(base, ec)) base = root;
  std::vector<std::string> class_dirs;
  for (const auto& e : listing(base))
    if (e.is_directory()) class_dirs.push_back(e.path().filename().string());
  std::sort(class_dirs.begin(), class_dirs.end());
  if (class_dirs.empty())
    throw std::runtime_error(fmt::format(
        "no class folders in '{}': an ImageFolder is ROOT/train/<class>/*.jpg", base.string()));
  std::vector<std::string> files;
  std::vector<int64_t> labels;
  for (size_t c = 0; c < class_dirs.size(); ++c) {
    std::vector<std::string> in_class;
    for (const auto& e : listing(base / class_dirs[c])) {
      const std::string ext = lower(e.path().extension().string());
      // Every entry but a folder: a FIFO or a link to a device named .jpg is then refused by the
      // reader (util/text_file.h) and counted as unreadable, not skipped without a word.
      std::error_code kind_ec;
      if (!e.is_directory(kind_ec) && (ext == ".jpg" || ext == ".jpeg"))
        in_class.push_back(e.path().string());
    }
    std::sort(in_class.begin(), in_class.end());
    for (auto& f : in_class) {
      files.push_back(std::move(f));
      labels.push_back(static_cast<int64_t>(c));
    }
  }
  if (files.empty())
    throw std::runtime_error(fmt::format("no .jpg/.jpeg files under '{}/<class>/'", base.string()));
  return std::make_unique<ImageFolder>(base.string(), std::move(files), std::move(labels),
                                       static_cast<int64_t>(class_dirs.size()));
}

std::unique_ptr<SampleSource> open_cifar10(const std::string& dir) {
  const CifarFiles found = find_cifar(dir);
  if (found.files.empty())
    throw std::runtime_error(fmt::format(
        "no CIFAR-10 batches in '{}': expected data_batch_*.bin (binary version) or data_batch_1 .. "
        "data_batch_5 (Python version, cifar-10-batches-py)",
        dir));
  std::vector<uint8_t> records;
  for (const auto& f : found.files) {
    if (found.python)
      append_python(f, records);
    else
      append_binary(f, records);
  }
  return std::make_unique<Cifar10>(found.root, std::move(records));
}

std::unique_ptr<SampleSource> open_dataset(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec))
    throw std::runtime_error(fmt::format(
        "dataset not found: '{}' does not exist (give an ImageFolder root with train/<class>/*.jpg, "
        "a CIFAR-10 folder with data_batch_*.bin or the Python batches, or \"synthetic\")",
        path));
  if (!find_cifar(path).files.empty()) return open_cifar10(path);
  return open_image_folder(path);
}

// ---------------------------------------------------------------------------------------------
Loader::Loader(std::shared_ptr<const SampleSource> source, LoaderOptions options)
    : source_(std::move(source)), opt_(options), bad_(source_->size(), 0) {
  if (source_->size() == 0) throw std::runtime_error("the dataset is empty");
  for (int64_t w = 0; w < opt_.workers; ++w) threads_.emplace_back([this] { worker_loop(); });
}

Loader::~Loader() {
  {
    std::lock_guard<std::mutex> lock(q_mutex_);
    stop_ = true;
  }
  q_cv_.notify_all();
  for (auto& t : threads_) t.join();
}

size_t Loader::index_at(uint64_t position) {
  const uint64_t n = source_->size();
  const uint64_t epoch = position / n;
  std::lock_guard<std::mutex> lock(perm_mutex_);
  auto it = perms_.find(epoch);
  if (it == perms_.end()) {
    std::vector<uint32_t> perm(n);
    std::iota(perm.begin(), perm.end(), 0u);
    std::mt19937_64 rng(opt_.seed * 0x9E3779B97F4A7C15ull + epoch + 1);
    std::shuffle(perm.begin(), perm.end(), rng);
    it = perms_.emplace(epoch, std::move(perm)).first;
    // Workers are at most a few batches apart, so two epochs back are never needed again.
    while (perms_.size() > 3) perms_.erase(perms_.begin());
  }
  return it->second[position % n];
}

void Loader::load_sample(uint64_t position, float* dst, int64_t* label) {
  const size_t n = source_->size();
  const int side = opt_.side;
  const int min_side = opt_.augment ? side : (side * 256 + 223) / 224;
  std::mt19937_64 rng(opt_.seed * 0xD1B54A32D192ED03ull + position);
  // An unusable sample is replaced by the next ones in the same epoch's order, wrapping around
  // within that epoch, so every file is tried once and the batch stays full; only when every file
  // has failed is there nothing left to train on. (The scan used to run on into the next epoch's
  // order, revisiting bad files and missing good ones: 2 good files of 4 were called all failed.)
  const uint64_t epoch_start = position - position % n;
  for (size_t attempt = 0; attempt < n; ++attempt) {
    const size_t index = index_at(epoch_start + (position % n + attempt) % n);
    {
      std::lock_guard<std::mutex> lock(bad_mutex_);
      if (bad_[index]) continue;
    }
    DecodeFailure why;
    std::optional<Image> img = source_->load(index, min_side, &why);
    if (!img) {
      std::lock_guard<std::mutex> lock(bad_mutex_);
      if (!bad_[index]) {
        bad_[index] = 1;
        ++skipped_;
        auto& [count, example] = why_bad_[why.kind];
        if (count++ == 0) example = why.detail;
        if (first_skipped_.empty()) first_skipped_ = why.detail;
      }
      continue;
    }
    const Rect r = opt_.augment ? random_resized_crop(img->width, img->height, rng)
                                : center_crop(img->width, img->height);
    const bool flip = opt_.augment && std::bernoulli_distribution(0.5)(rng);
    resample(*img, r, side, flip, dst);
    *label = source_->label(index);
    return;
  }
  throw std::runtime_error(no_usable_images());
}

std::string Loader::first_skipped() {
  std::lock_guard<std::mutex> lock(bad_mutex_);
  return first_skipped_;
}

std::string Loader::no_usable_images() {
  std::lock_guard<std::mutex> lock(bad_mutex_);
  std::string parts;
  for (const auto& [kind, seen] : why_bad_)
    parts += fmt::format("{}{} {} (e.g. {})", parts.empty() ? "" : "; ", seen.first, failure_text(kind),
                         seen.second);
  return fmt::format("no usable images in '{}': all {} files were skipped: {}", source_->root(),
                     source_->size(), parts);
}

HostBatch Loader::build(uint64_t batch_index) {
  HostBatch b;
  const size_t per_image = static_cast<size_t>(3) * opt_.side * opt_.side;
  b.images.resize(per_image * static_cast<size_t>(opt_.batch));
  b.labels.resize(static_cast<size_t>(opt_.batch));
  const uint64_t first = (batch_index * static_cast<uint64_t>(opt_.shards) + static_cast<uint64_t>(opt_.shard)) *
                         static_cast<uint64_t>(opt_.batch);
  for (int64_t i = 0; i < opt_.batch; ++i)
    load_sample(first + static_cast<uint64_t>(i), &b.images[per_image * static_cast<size_t>(i)],
                &b.labels[static_cast<size_t>(i)]);
  return b;
}

void Loader::worker_loop() {
  const uint64_t capacity = static_cast<uint64_t>(std::max<int64_t>(1, opt_.prefetch * opt_.workers));
  for (;;) {
    uint64_t k;
    {
      std::unique_lock<std::mutex> lock(q_mutex_);
      q_cv_.wait(lock, [&] { return stop_ || next_claim_ < consumed_ + capacity; });
      if (stop_) return;
      k = next_claim_++;
    }
    HostBatch b;
    std::exception_ptr err;
    try {
      b = build(k);
    } catch (...) {
      err = std::current_exception();
    }
    {
      std::lock_guard<std::mutex> lock(q_mutex_);
      if (err) failed_[k] = err;
      else ready_[k] = std::move(b);
    }
    q_cv_.notify_all();
  }
}

HostBatch Loader::next() {
  if (threads_.empty()) return build(consumed_++);
  std::unique_lock<std::mutex> lock(q_mutex_);
  const uint64_t k = consumed_;
  q_cv_.wait(lock, [&] { return ready_.count(k) || failed_.count(k); });
  if (auto f = failed_.find(k); f != failed_.end()) std::rethrow_exception(f->second);
  HostBatch b = std::move(ready_[k]);
  ready_.erase(k);
  ++consumed_;
  lock.unlock();
  q_cv_.notify_all();
  return b;
}

}  // namespace rlx::train
