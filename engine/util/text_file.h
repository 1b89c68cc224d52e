// text_file.h: the one owner of reading files.
//
// Two kinds of file are read:
//   - the machine's own small text files (/proc, /sys and cgroup files, os-release): read_text_file,
//     so each probe treats a missing or unreadable file the same way, as "not known";
//   - files a user names (a kit's metrics.csv, an ncu CSV, a dataset's JPEGs and batches, a script,
//     a model file, a Markdown report, an image to embed, a database): UserFile and
//     read_user_file, one rule for all of them (issue 48 item 1, after issue 35 item 7's images).
//
// The rule for a user's file: it is opened without blocking (O_NONBLOCK: opening a FIFO for reading
// would otherwise wait for a writer forever), then it must be a regular file (a FIFO, a device such
// as /dev/zero behind a symlink, a socket or a directory is refused: it would block, never end or
// is not data), and it may hold at most a stated number of bytes (counted as read, so a file that
// grows, or a /proc file that says it is empty, is bounded too). Each refusal is a UserFileError:
// one line naming the file, what is wrong and the fix, with the reason as data for callers that
// treat a missing optional file as absent.
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <string_view>
#include <utility>

namespace rlx::util {

// The file's whole contents, or nullopt where it cannot be opened (the machine's own files).
std::optional<std::string> read_text_file(const std::string& path);

// Why a user's file was refused.
enum class UserFileProblem { missing, not_regular, too_large, unreadable };

struct UserFileError : std::runtime_error {
  UserFileError(UserFileProblem p, std::string what_it_is, const std::string& message)
      : std::runtime_error(message), problem(p), detail(std::move(what_it_is)) {}
  UserFileProblem problem;
  // missing, unreadable: the system's words ("No such file or directory"); not_regular: what the
  // file is ("a FIFO"); too_large: the cap ("50 MiB").
  std::string detail;
};

// No bound on the bytes (a file read as a stream, a chunk at a time, whose reader bounds itself).
inline constexpr uint64_t kNoByteLimit = UINT64_MAX;

// A user's file open for reading under the rule above. `what` names it in messages ("the kit's
// metrics.csv", "the script", "the database"); the path is always named too.
class UserFile {
 public:
  UserFile(const std::string& path, std::string_view what, uint64_t max_bytes = kNoByteLimit);
  ~UserFile();
  UserFile(const UserFile&) = delete;
  UserFile& operator=(const UserFile&) = delete;

  // Reads up to n bytes; 0 at the end. Throws UserFileError on a read error or past max_bytes.
  size_t read(char* buf, size_t n);
  // The whole (rest of the) file.
  std::string read_all();
  // Up to n bytes from byte `offset`, leaving the reading position where it was (pread).
  std::string read_at(uint64_t offset, size_t n);
  // A stream over the file (for parsers that read lines); its errors are the same UserFileErrors.
  std::istream& stream();
  // The size the file had when opened.
  uint64_t size() const { return size_; }
  const std::string& path() const { return path_; }

 private:
  class Buffer;
  std::string path_, what_;
  uint64_t max_bytes_, size_ = 0, read_ = 0;
  int fd_ = -1;
  std::unique_ptr<Buffer> buffer_;
  std::unique_ptr<std::istream> stream_;
};

// The whole file under the rule above.
std::string read_user_file(const std::string& path, std::string_view what, uint64_t max_bytes);

// The first head_bytes and the last tail_bytes of a user's file under the rule above (they overlap
// in a short file), and its size: how an appender reads a header, and whether the file ends in a
// newline, without reading the rows between.
struct FileEnds {
  std::string head, tail;
  uint64_t size = 0;
};
FileEnds read_user_file_ends(const std::string& path, std::string_view what, size_t head_bytes, size_t tail_bytes);

// Checks a user's file under the rule above without reading it (a database SQLite will open);
// returns its size, or nullopt when it does not exist and missing_ok.
std::optional<uint64_t> check_user_file(const std::string& path, std::string_view what,
                                        bool missing_ok = false);

// "a FIFO", "a device", "a directory", "a socket" for a file's st_mode (messages).
std::string file_kind_text(unsigned mode);

// Bytes as a short decimal size for messages: "512 bytes", "64 KB", "50 MB", "1 GB".
std::string size_text(uint64_t bytes);

}  // namespace rlx::util
