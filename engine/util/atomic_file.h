// atomic_file.h: writing an output file so that nothing is lost or half-written.
//
// A regular output is written to a temporary file in the target's own directory (so the final
// rename cannot cross file systems), every write is checked, the file is flushed to disk with fsync
// and then renamed over the target: readers see either the old file or the complete new one, and
// a failure at any point (full disk, kill -9, an exception while drawing) leaves the old file as
// it was. The temporary file is removed on every failure path.
//
// An output that is the same file as one of the inputs (same device and inode, which covers
// symlinks and hard links) is refused before anything is written: `rlx export db --csv db` must not
// replace the database it reads. Nor is any SQLite database replaced: nothing written through here
// is one, and `rlx env --markdown results/study.db` must not destroy a study.
//
// Special files (/dev/full, /dev/stdout, a FIFO, a terminal) cannot be renamed over; they are
// written directly, still checking every write and the close, so "No space left on device" on
// /dev/full is an error and not a silent success.
//
// A target that is a symlink to an existing file is resolved first: the link stays a link and the
// file it points to is replaced.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rlx::util {

// True when both paths exist and are the same file (device and inode, after symlinks).
bool same_file(const std::string& a, const std::string& b);

// Throws std::runtime_error naming `output` and `input` when both exist and are the same file.
void refuse_same_file(const std::string& output, const std::vector<std::string>& inputs);

// Streaming writer: construct (opens the temporary file, so an unwritable directory fails before
// any work), write() any number of times, then commit(). Destroying it without commit() discards
// what was written and leaves the target untouched.
class AtomicFile {
 public:
  // `kind` names what the file is in every message ("figure": "cannot write figure 'x.png': ...").
  explicit AtomicFile(const std::string& target, const std::vector<std::string>& not_same_as = {},
                      std::string kind = "");
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // Appends bytes; throws std::runtime_error ("cannot write [KIND ]'PATH': <strerror>") on any error.
  void write(std::string_view bytes);
  // Flushes, fsyncs, closes and renames over the target (regular files); closes (special files).
  void commit();

  const std::string& target() const { return target_; }
  // True when the target is a device, FIFO or socket written in place (no temporary file).
  bool direct() const { return direct_; }

 private:
  [[noreturn]] void fail(const std::string& what, int err);
  std::string cannot_write() const;  // "cannot write [kind ]'target'"
  void discard() noexcept;
  std::string target_;  // what the user named (for messages)
  std::string kind_;    // what the file is (for messages); "" = just "file"
  std::string final_;   // where the file ends up (symlinks resolved)
  std::string temp_;    // temporary file in final_'s directory; empty when direct_
  int fd_ = -1;
  bool direct_ = false;
  bool committed_ = false;
};

// Writes `content` to `path` atomically (see above) and refuses `not_same_as` inputs.
void write_file_atomic(const std::string& path, std::string_view content,
                       const std::vector<std::string>& not_same_as = {});

}  // namespace rlx::util
