// text_file.cpp: see text_file.h.
#include "util/text_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace rlx::util {

std::optional<std::string> read_text_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string file_kind_text(unsigned mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string size_text(uint64_t bytes) {
  constexpr uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;
  if (bytes >= kGiB) return fmt::format("{:.3g} GiB", static_cast<double>(bytes) / kGiB);
  if (bytes >= kMiB) return fmt::format("{:.3g} MiB", static_cast<double>(bytes) / kMiB);
  if (bytes >= kKiB) return fmt::format("{:.3g} KiB", static_cast<double>(bytes) / kKiB);
  return fmt::format("{} bytes", bytes);
}

namespace {

std::string named(std::string_view what, const std::string& path) {
  return what.empty() ? fmt::format("'{}'", path) : fmt::format("{} '{}'", what, path);
}

[[noreturn]] void refuse_kind(std::string_view what, const std::string& path, unsigned mode) {
  const bool endless = S_ISFIFO(mode) || S_ISCHR(mode) || S_ISBLK(mode) || S_ISSOCK(mode);
  throw UserFileError(
      UserFileProblem::not_regular, file_kind_text(mode),
      fmt::format("{} is {}, not a regular file: {}", named(what, path), file_kind_text(mode),
                  S_ISDIR(mode) ? "give the path of a file in it"
                  : endless     ? "rlx reads only regular files (this one would block or never end); put the "
                                  "file itself there"
                                : "put a regular file there"));
}

// Opens path without blocking and checks it is a regular file; returns the descriptor and size.
int open_regular(const std::string& path, std::string_view what, uint64_t* size) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    const int err = errno;
    if (err == ENOENT)
      throw UserFileError(UserFileProblem::missing, std::strerror(err),
                          fmt::format("{} does not exist (check the path)", named(what, path)));
    // A socket cannot be opened at all (ENXIO): name what it is, as for a FIFO.
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) refuse_kind(what, path, st.st_mode);
    throw UserFileError(UserFileProblem::unreadable, std::strerror(err),
                        fmt::format("cannot read {}: {}", named(what, path), std::strerror(err)));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    const unsigned mode = st.st_mode;
    ::close(fd);
    refuse_kind(what, path, mode);
  }
  *size = static_cast<uint64_t>(st.st_size);
  return fd;
}

[[noreturn]] void refuse_size(std::string_view what, const std::string& path, uint64_t max_bytes) {
  throw UserFileError(UserFileProblem::too_large, size_text(max_bytes),
                      fmt::format("{} is larger than the {} rlx reads of such a file: is it the right file?",
                                  named(what, path), size_text(max_bytes)));
}

}  // namespace

// The stream's buffer: reads go through UserFile::read, so the cap and the errors are one rule.
class UserFile::Buffer : public std::streambuf {
 public:
  explicit Buffer(UserFile& f) : file_(f) {}

 protected:
  int_type underflow() override {
    const size_t n = file_.read(data_, sizeof data_);
    if (n == 0) return traits_type::eof();
    setg(data_, data_, data_ + n);
    return traits_type::to_int_type(data_[0]);
  }

 private:
  UserFile& file_;
  char data_[1 << 16];
};

UserFile::UserFile(const std::string& path, std::string_view what, uint64_t max_bytes)
    : path_(path), what_(what), max_bytes_(max_bytes) {
  fd_ = open_regular(path, what, &size_);
  if (size_ > max_bytes_) {
    ::close(fd_);
    fd_ = -1;
    refuse_size(what_, path_, max_bytes_);
  }
}

UserFile::~UserFile() {
  if (fd_ >= 0) ::close(fd_);
}

size_t UserFile::read(char* buf, size_t n) {
  for (;;) {
    const ssize_t got = ::read(fd_, buf, n);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      const std::string why = std::strerror(errno);
      throw UserFileError(UserFileProblem::unreadable, why,
                          fmt::format("error while reading {}: {}", named(what_, path_), why));
    }
    read_ += static_cast<uint64_t>(got);
    if (read_ > max_bytes_) refuse_size(what_, path_, max_bytes_);
    return static_cast<size_t>(got);
  }
}

std::string UserFile::read_all() {
  std::string out;
  if (size_ > 0 && size_ < (uint64_t{1} << 40)) out.reserve(static_cast<size_t>(size_));
  char buf[1 << 16];
  for (size_t n; (n = read(buf, sizeof buf)) > 0;) out.append(buf, n);
  return out;
}

std::istream& UserFile::stream() {
  if (!stream_) {
    buffer_ = std::make_unique<Buffer>(*this);
    stream_ = std::make_unique<std::istream>(buffer_.get());
    // A read error inside underflow() reaches the parser as this exception, not as a silent EOF.
    stream_->exceptions(std::ios::badbit);
  }
  return *stream_;
}

std::string UserFile::read_at(uint64_t offset, size_t n) {
  std::string out(n, '\0');
  size_t got = 0;
  while (got < n) {
    const ssize_t k = ::pread(fd_, out.data() + got, n - got, static_cast<off_t>(offset + got));
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) {
      const std::string why = std::strerror(errno);
      throw UserFileError(UserFileProblem::unreadable, why,
                          fmt::format("error while reading {}: {}", named(what_, path_), why));
    }
    if (k == 0) break;
    got += static_cast<size_t>(k);
  }
  out.resize(got);
  return out;
}

FileEnds read_user_file_ends(const std::string& path, std::string_view what, size_t head_bytes, size_t tail_bytes) {
  UserFile f(path, what);
  FileEnds ends;
  ends.size = f.size();
  ends.head = f.read_at(0, head_bytes);
  const uint64_t tail = std::min<uint64_t>(tail_bytes, ends.size);
  ends.tail = f.read_at(ends.size - tail, static_cast<size_t>(tail));
  return ends;
}

std::string read_user_file(const std::string& path, std::string_view what, uint64_t max_bytes) {
  UserFile f(path, what, max_bytes);
  return f.read_all();
}

std::optional<uint64_t> check_user_file(const std::string& path, std::string_view what, bool missing_ok) {
  uint64_t size = 0;
  int fd = -1;
  try {
    fd = open_regular(path, what, &size);
  } catch (const UserFileError& e) {
    if (missing_ok && e.problem == UserFileProblem::missing) return std::nullopt;
    throw;
  }
  ::close(fd);
  return size;
}

}  // namespace rlx::util
