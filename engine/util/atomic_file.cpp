// atomic_file.cpp: temporary file + fsync + rename, same-file refusal, checked writes (see
// atomic_file.h). Plain POSIX calls so every error has its errno.
#include "atomic_file.h"

#include "output_check.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <fstream>
#include <stdexcept>

namespace rlx::util {

namespace {

std::string errno_text(int err) {
  return std::strerror(err);
}

std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool starts_with(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

// The process umask without changing it (umask(2) can only be read by setting it, which races
// with other threads creating files); Linux >= 4.7 shows it in /proc/self/status.
mode_t current_umask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (starts_with(line, "Umask:")) return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8));
  }
  return 022;
}

// A symlink to an existing file resolves to that file, so the link survives the rename.
std::string resolve_link(const std::string& path) {
  struct stat ls {};
  if (::lstat(path.c_str(), &ls) != 0 || !S_ISLNK(ls.st_mode)) return path;
  char buf[PATH_MAX];
  if (::realpath(path.c_str(), buf) == nullptr) return path;  // dangling: the link is replaced
  return buf;
}

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {
  }, sb{};
  if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

void refuse_same_file(const std::string& output, const std::vector<std::string>& inputs) {
  for (const auto& in : inputs) {
    if (same_file(output, in))
      throw std::runtime_error("the output '" + output + "' is the same file as the input '" + in +
                               "': writing it would destroy the input; choose another output file");
  }
}

AtomicFile::AtomicFile(const std::string& target, const std::vector<std::string>& not_same_as, std::string kind)
    : target_(target), kind_(std::move(kind)) {
  if (target.empty()) throw std::runtime_error(cannot_write() + ": the output path is empty");
  refuse_same_file(target, not_same_as);
  struct stat st {};
  const bool exists = ::stat(target.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode))
    throw std::runtime_error(cannot_write() + ": it is a directory");
  // Devices, FIFOs and /dev/stdout-style names (which may point at the shell's redirection file)
  // are written in place: renaming over them is impossible or would detach the shell's file.
  direct_ = exists && (!S_ISREG(st.st_mode) || starts_with(target, "/dev/") || starts_with(target, "/proc/"));
  if (direct_) {
    // Opened without blocking: opening a FIFO no process reads would wait for a reader forever
    // (issue 56 item 4). With a reader (`--csv >(gzip > x.gz)`) the writes block as usual.
    fd_ = ::open(target.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0666);
    if (fd_ < 0 && errno == ENXIO && S_ISFIFO(st.st_mode))
      throw std::runtime_error(cannot_write() +
                               ": it is a FIFO that no process reads (writing it would wait for one "
                               "forever); start its reader first, or give a regular file");
    if (fd_ < 0) fail("", errno);
    const int flags = ::fcntl(fd_, F_GETFL);
    if (flags >= 0) ::fcntl(fd_, F_SETFL, flags & ~O_NONBLOCK);
    return;
  }
  final_ = resolve_link(target);
  // A read-only file is a request not to overwrite it, as it is for a plain open(2).
  if (exists && ::access(final_.c_str(), W_OK) != 0) fail("", errno);
  // Nothing rlx writes through here is a database: text or a figure over a study database
  // (`--markdown results/study.db`, a figure's out) would destroy it (issue 25 finding 6).
  if (exists && is_sqlite_file(final_))
    fail("it is an SQLite database; refusing to overwrite it (choose another file name)", 0);
  const std::string dir = directory_of(final_);
  temp_ = dir + "/." + base_of(final_) + ".tmp-XXXXXX";
  fd_ = ::mkstemp(temp_.data());
  if (fd_ < 0) {
    const int err = errno;
    temp_.clear();
    struct stat ds {};
    if (::stat(dir.c_str(), &ds) != 0) fail("the directory '" + dir + "' does not exist", 0);
    fail("cannot create a file in the directory '" + dir + "'", err);
  }
  const mode_t mode = exists ? (st.st_mode & 07777) : (0666 & ~current_umask());
  if (::fchmod(fd_, mode) != 0) fail("", errno);
}

AtomicFile::~AtomicFile() {
  if (!committed_) discard();
}

void AtomicFile::discard() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  temp_.clear();
}

std::string AtomicFile::cannot_write() const {
  return "cannot write " + (kind_.empty() ? "" : kind_ + " ") + "'" + target_ + "'";
}

void AtomicFile::fail(const std::string& what, int err) {
  discard();
  committed_ = true;  // nothing left to clean up
  std::string msg = cannot_write();
  if (!what.empty()) msg += ": " + what;
  if (err != 0) msg += ": " + errno_text(err);
  throw std::runtime_error(msg);
}

void AtomicFile::write(std::string_view bytes) {
  if (fd_ < 0) throw std::runtime_error(cannot_write() + ": the file is already closed");
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("", errno);
    if (n == 0) fail("", ENOSPC);  // write(2) returning 0 for a non-empty buffer: the device is full
    bytes.remove_prefix(static_cast<size_t>(n));
  }
}

void AtomicFile::commit() {
  if (fd_ < 0) throw std::runtime_error(cannot_write() + ": the file is already closed");
  // fsync on a terminal or pipe fails with EINVAL: only regular files need to reach the disk.
  if (!direct_ && ::fsync(fd_) != 0) fail("", errno);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail("", errno);
  if (!direct_) {
    if (::rename(temp_.c_str(), final_.c_str()) != 0) fail("", errno);
    temp_.clear();
    // Make the rename itself durable; a directory that cannot be opened or synced is not an error
    // for the file's content, which is already on disk.
    const int dfd = ::open(directory_of(final_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
      (void)::fsync(dfd);
      ::close(dfd);
    }
  }
  committed_ = true;
}

void write_file_atomic(const std::string& path, std::string_view content,
                       const std::vector<std::string>& not_same_as) {
  AtomicFile f(path, not_same_as);
  f.write(content);
  f.commit();
}

}  // namespace rlx::util
