#include "ws/isolation/channel.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace ws::isolation {

namespace {

void put_u32(std::string& s, uint32_t v) {
  for (int i = 0; i < 4; ++i) s.push_back(char((v >> (8 * i)) & 0xff));
}
void put_u64(std::string& s, uint64_t v) {
  for (int i = 0; i < 8; ++i) s.push_back(char((v >> (8 * i)) & 0xff));
}
uint64_t get(const std::string& s, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= uint64_t(uint8_t(s[at + i])) << (8 * i);
  return v;
}

constexpr size_t kHeader = 4 + 8 + 8;

bool send_all(int fd, const char* p, size_t n) {
  while (n) {
    const ssize_t k = ::send(fd, p, n, MSG_NOSIGNAL);
    if (k < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        pollfd pfd{fd, POLLOUT, 0};
        ::poll(&pfd, 1, 100);
        continue;
      }
      return false;
    }
    p += k;
    n -= size_t(k);
  }
  return true;
}

}  // namespace

bool send_frame(int fd, const Frame& f) {
  std::string header;
  put_u32(header, uint32_t(f.kind));
  put_u64(header, f.id);
  put_u64(header, f.payload.size());
  return send_all(fd, header.data(), header.size()) && send_all(fd, f.payload.data(), f.payload.size());
}

bool FrameReader::read_some(int fd, std::string& error) {
  if (consumed_ > (1u << 20) && consumed_ * 2 > buffer_.size()) {
    buffer_.erase(0, consumed_);
    consumed_ = 0;
  }
  char chunk[1 << 16];
  for (;;) {
    const ssize_t k = ::recv(fd, chunk, sizeof chunk, MSG_DONTWAIT);
    if (k > 0) {
      buffer_.append(chunk, size_t(k));
      if (size_t(k) < sizeof chunk) return true;
      continue;
    }
    if (k == 0) {
      error = "the run process closed its end";
      return false;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return true;
    error = std::string("reading from the run process failed: ") + std::strerror(errno);
    return false;
  }
}

bool FrameReader::next(Frame& out, std::string& error) {
  const size_t have = buffer_.size() - consumed_;
  if (have < kHeader) return false;
  const uint64_t size = get(buffer_, consumed_ + 12, 8);
  if (size > kMaxFrameBytes) {
    error = "a message of " + std::to_string(size) + " bytes from the run process is over the limit";
    return false;
  }
  if (have - kHeader < size) {
    if (buffer_.capacity() < consumed_ + kHeader + size) buffer_.reserve(consumed_ + kHeader + size);
    return false;
  }
  out.kind = Kind(uint32_t(get(buffer_, consumed_, 4)));
  out.id = get(buffer_, consumed_ + 4, 8);
  out.payload.assign(buffer_, consumed_ + kHeader, size);
  consumed_ += kHeader + size;
  if (consumed_ == buffer_.size()) {
    buffer_.clear();
    consumed_ = 0;
  }
  return true;
}

bool receive_frame(int fd, FrameReader& reader, Frame& out, std::string& error) {
  for (;;) {
    error.clear();
    if (reader.next(out, error)) return true;
    if (!error.empty()) return false;
    pollfd pfd{fd, POLLIN, 0};
    const int k = ::poll(&pfd, 1, -1);
    if (k < 0 && errno != EINTR) {
      error = std::string("waiting for a message failed: ") + std::strerror(errno);
      return false;
    }
    if (k > 0 && !reader.read_some(fd, error)) {
      if (reader.next(out, error)) return true;
      return false;
    }
  }
}

}  // namespace ws::isolation
