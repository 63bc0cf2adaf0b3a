#include "ws/util/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace ws {

namespace {
std::string describe(const std::filesystem::path& path, int err) {
  return "cannot write " + path.string() + ": " + std::strerror(err);
}
}  // namespace

namespace {
const char* kind_of(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}
}  // namespace

namespace {

// Writes `bytes` into the existing file at `path` (its inode: its other names, owner and mode
// stay). `copy` already holds the same bytes, flushed: it is removed once the file is written, and
// kept (and named in the message) when that fails midway.
std::string write_in_place(const std::filesystem::path& given, const std::filesystem::path& path, std::span<const uint8_t> bytes,
                           const std::string& copy) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    const int err = errno;
    ::unlink(copy.c_str());
    return describe(given, err);
  }
  size_t done = 0;
  int err = ::ftruncate(fd, 0) == 0 ? 0 : errno;
  while (err == 0 && done < bytes.size()) {
    const ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) err = errno;
    else done += size_t(w);
  }
  if (err == 0 && ::fsync(fd) != 0) err = errno;
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err != 0)
    return describe(given, err) + " (it has other names or another owner, so it was written in place; the new contents are in " +
           copy + ")";
  ::unlink(copy.c_str());
  return {};
}

}  // namespace

std::string write_file_atomic(const std::filesystem::path& given, std::span<const uint8_t> bytes) {
  // Follow symbolic links to the file they name (a dangling link: the file it would name).
  std::filesystem::path path = given;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat ls {};
    if (::lstat(path.c_str(), &ls) != 0 || !S_ISLNK(ls.st_mode)) break;
    std::error_code ec;
    const std::filesystem::path target = std::filesystem::read_symlink(path, ec);
    if (ec) return describe(given, ec.value());
    path = target.is_absolute() ? target : path.parent_path() / target;
    if (hops == 39) return describe(given, ELOOP);
  }
  mode_t mode = 0644;
  struct stat old {};
  const bool exists = ::stat(path.c_str(), &old) == 0;
  if (exists) {
    if (!S_ISREG(old.st_mode))
      return "cannot write " + given.string() + ": it is " + kind_of(old.st_mode) +
             ", not a regular file (warpscope writes its pictures, traces and tables to regular files only)";
    mode = old.st_mode & 07777;
  }
  std::filesystem::path dir = path.parent_path();
  if (dir.empty()) dir = ".";
  std::string tmpl = (dir / ("." + path.filename().string() + ".XXXXXX")).string();
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0) return describe(given, errno);
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      ::unlink(tmpl.c_str());
      return describe(given, err);
    }
    done += static_cast<size_t>(w);
  }
  if (::fsync(fd) != 0 || ::fchmod(fd, mode) != 0) {
    int err = errno;
    ::close(fd);
    ::unlink(tmpl.c_str());
    return describe(given, err);
  }
  // The file keeps its owner and group; where the new copy cannot be given them (another user's
  // file), or where the file has other names (hard links), renaming would change the owner or cut
  // the links: the bytes are written into the file itself instead.
  const bool owner_kept = !exists || (old.st_uid == ::geteuid() && old.st_gid == ::getegid()) ||
                          ::fchown(fd, old.st_uid, old.st_gid) == 0;
  if (::close(fd) != 0) {
    int err = errno;
    ::unlink(tmpl.c_str());
    return describe(given, err);
  }
  if (exists && (old.st_nlink > 1 || !owner_kept)) return write_in_place(given, path, bytes, tmpl);
  if (::rename(tmpl.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmpl.c_str());
    return describe(given, err);
  }
  return {};
}

std::string write_file_atomic(const std::filesystem::path& path, const std::string& text) {
  return write_file_atomic(
      path, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

bool read_file(const std::filesystem::path& path, std::string& out, std::string& error, uint64_t max_bytes) {
  // Opened without blocking (a FIFO with no writer would wait forever), then looked at.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    error = "cannot open " + path.string() + ": " + std::strerror(errno);
    return false;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    const bool dir = S_ISDIR(st.st_mode);
    ::close(fd);
    error = "cannot read " + path.string() + ": " +
            (dir ? "it is a directory" : "it is not a regular file (a device, a FIFO or a socket), so it is not read");
    return false;
  }
  if (uint64_t(st.st_size) > max_bytes) {
    ::close(fd);
    error = "cannot read " + path.string() + ": it is " + std::to_string(st.st_size) + " bytes, over the " +
            std::to_string(max_bytes) + " this reader takes";
    return false;
  }
  std::string data;
  data.resize(size_t(st.st_size));
  size_t got = 0;
  while (got < data.size()) {
    const ssize_t n = ::read(fd, data.data() + got, data.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += size_t(n);
  }
  ::close(fd);
  if (got != data.size()) {
    error = "cannot read " + path.string() + ": it ended after " + std::to_string(got) + " of " +
            std::to_string(data.size()) + " bytes";
    return false;
  }
  out = std::move(data);
  return true;
}

}  // namespace ws
