// dataset.h: the real-data sources (JPEG ImageFolder, CIFAR-10 binary or Python batches) and the
// loader that turns them into batches of normalized CHW floats on worker threads with bounded prefetch. No
// LibTorch here: the trainer wraps a HostBatch in a tensor (pinned and copied on CUDA).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "train/image.h"

namespace rlx::train {

// Samples addressed by index. load() returns nullopt for an unusable sample (skipped, counted),
// saying why in `failure` when given.
class SampleSource {
 public:
  virtual ~SampleSource() = default;
  virtual size_t size() const = 0;
  virtual int64_t classes() const = 0;
  virtual int64_t label(size_t index) const = 0;
  virtual std::optional<Image> load(size_t index, int min_side, DecodeFailure* failure = nullptr) const = 0;
  virtual std::string kind() const = 0;  // "imagefolder", "cifar10"
  virtual std::string root() const = 0;
};

// root/train/<class>/*.jpg (or root/<class>/*.jpg when there is no train/); classes are the
// sorted folder names. Throws std::runtime_error when the folder is missing or holds no JPEG, or
// when it or a class folder cannot be listed (an unreadable class used to become an empty one).
std::unique_ptr<SampleSource> open_image_folder(const std::string& root);
// CIFAR-10 training batches: data_batch_*.bin in dir (or dir/cifar-10-batches-bin), 3073-byte
// records, label then 1024 R, 1024 G, 1024 B; else the Python version's data_batch_1 ..
// data_batch_5 in dir (or dir/cifar-10-batches-py), pickles read by cifar_pickle.h. Throws
// std::runtime_error for no files, a truncated or hostile file, or a bad label.
std::unique_ptr<SampleSource> open_cifar10(const std::string& dir);
// CIFAR-10 when the folder has either version's batches, an ImageFolder otherwise.
std::unique_ptr<SampleSource> open_dataset(const std::string& path);

struct HostBatch {
  std::vector<float> images;    // batch x 3 x side x side, normalized
  std::vector<int64_t> labels;  // batch
};

struct LoaderOptions {
  int64_t batch = 1;
  int side = 224;        // output image side
  bool augment = true;   // random resized crop + flip; else resize + center crop
  int64_t workers = 0;   // 0: next() decodes on the calling thread
  int64_t prefetch = 2;  // batches decoded ahead, per worker
  uint64_t seed = 0;
  // Data-parallel sharding: rank `shard` of `shards` reads, of the stream's batch k of
  // shards x batch samples, the slice [shard x batch, (shard + 1) x batch), so the ranks together
  // read exactly the stream one process with the global batch reads (as DistributedSampler).
  int64_t shard = 0, shards = 1;
};

// An endless, reshuffled-every-epoch stream of batches, identical for any number of workers
// (each sample's order and augmentation depend only on the seed and its position in the stream).
class Loader {
 public:
  Loader(std::shared_ptr<const SampleSource> source, LoaderOptions options);
  ~Loader();
  Loader(const Loader&) = delete;
  Loader& operator=(const Loader&) = delete;

  // The next batch; blocks until it is ready. Rethrows a worker's failure (std::runtime_error
  // when no usable sample is left, counting the skipped files by why).
  HostBatch next();
  // Distinct samples found unreadable so far.
  int64_t skipped() const { return skipped_.load(); }
  // The first of them, with why ("'a/b.jpg': the file (300 bytes) ends before its end-of-image
  // marker"); "" while none was skipped.
  std::string first_skipped();

 private:
  HostBatch build(uint64_t batch_index);
  void load_sample(uint64_t position, float* dst, int64_t* label);
  std::string no_usable_images();
  size_t index_at(uint64_t position);
  void worker_loop();

  std::shared_ptr<const SampleSource> source_;
  LoaderOptions opt_;
  std::mutex perm_mutex_;
  std::map<uint64_t, std::vector<uint32_t>> perms_;  // epoch -> order (recent epochs only)
  std::mutex bad_mutex_;
  std::vector<char> bad_;
  std::map<DecodeFailure::Kind, std::pair<int64_t, std::string>> why_bad_;  // count, first example
  std::string first_skipped_;
  std::atomic<int64_t> skipped_{0};

  // Prefetch: workers claim batch indices in order and park results in `ready_`; next() takes
  // them in order. A worker does not start batch k before k < consumed_ + capacity.
  std::mutex q_mutex_;
  std::condition_variable q_cv_;
  std::map<uint64_t, HostBatch> ready_;
  std::map<uint64_t, std::exception_ptr> failed_;
  uint64_t next_claim_ = 0;
  uint64_t consumed_ = 0;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace rlx::train
