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

std::string write_file_atomic(const std::filesystem::path& path, std::span<const uint8_t> bytes) {
  std::filesystem::path dir = path.parent_path();
  if (dir.empty()) dir = ".";
  std::string tmpl = (dir / ("." + path.filename().string() + ".XXXXXX")).string();
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0) return describe(path, errno);
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      ::unlink(tmpl.c_str());
      return describe(path, err);
    }
    done += static_cast<size_t>(w);
  }
  if (::fsync(fd) != 0 || ::fchmod(fd, 0644) != 0) {
    int err = errno;
    ::close(fd);
    ::unlink(tmpl.c_str());
    return describe(path, err);
  }
  if (::close(fd) != 0) {
    int err = errno;
    ::unlink(tmpl.c_str());
    return describe(path, err);
  }
  if (::rename(tmpl.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmpl.c_str());
    return describe(path, err);
  }
  return {};
}

std::string write_file_atomic(const std::filesystem::path& path, const std::string& text) {
  return write_file_atomic(
      path, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

bool read_file(const std::filesystem::path& path, std::string& out, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open " + path.string() + ": " + std::strerror(errno);
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    error = "cannot read " + path.string();
    return false;
  }
  out = std::move(ss).str();
  return true;
}

}  // namespace ws
