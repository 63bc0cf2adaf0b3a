// The one byte codec of warpscope's records, for the trace file (.wst, trace_io.h) and the bytes
// between warpscope and its run process (isolation/wire.h): little-endian numbers, strings with a
// 32-bit length, blobs and counts with a 64-bit one. The reader checks every length and count
// against the bytes left, so damaged or cut input is an error that says where, never a crash or a
// huge allocation.
//
//   ByteWriter w;  w.u32(7);  w.str("reduce");
//   ByteReader r(w.bytes(), "the file");
//   uint32_t n = r.u32();  std::string k = r.str();
//   if (r.failed()) puts(r.error().c_str());   // "the file ends in the middle of a string"
//
// A reader made with ByteReader::Throw throws ByteError at the first fault instead (the wire: a
// frame is read in one go and refused whole).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ws {

struct ByteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class ByteWriter {
 public:
  template <class T>
  void put(T v) {
    static_assert(std::is_trivially_copyable_v<T>);
    char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    if constexpr (std::endian::native == std::endian::big) std::reverse(b, b + sizeof(T));
    out_.append(b, sizeof(T));
  }
  void u8(uint8_t v) { put(v); }
  void u32(uint32_t v) { put(v); }
  void u64(uint64_t v) { put(v); }
  void i64(int64_t v) { put(v); }
  void f64(double v) { put(v); }
  void boolean(bool v) { put(uint8_t(v ? 1 : 0)); }
  // A name or a message: at most 4 GiB (a longer one is a bug of the writer: refused, not cut).
  void str(std::string_view s) {
    if (s.size() > UINT32_MAX) throw std::length_error("a string of " + std::to_string(s.size()) + " bytes in a record");
    u32(uint32_t(s.size()));
    out_.append(s);
  }
  // Bytes of any size (a whole trace, an array's values).
  void blob(std::string_view s) {
    u64(s.size());
    out_.append(s);
  }
  void f64s(const std::vector<double>& v) {
    u64(v.size());
    for (double x : v) f64(x);
  }
  // Bytes as they are, no length (a file's magic, a payload after its header).
  void raw(std::string_view s) { out_.append(s); }
  const std::string& bytes() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class ByteReader {
 public:
  enum Mode { Flag, Throw };
  // `source` names the input in errors: "the file", "a message from the run process".
  explicit ByteReader(std::string_view in, std::string source = "the input", Mode mode = Flag)
      : in_(in), source_(std::move(source)), mode_(mode) {}

  template <class T>
  T get() {
    T v{};
    if (!need(sizeof(T), "a number")) return v;
    char b[sizeof(T)];
    std::memcpy(b, in_.data() + pos_, sizeof(T));
    if constexpr (std::endian::native == std::endian::big) std::reverse(b, b + sizeof(T));
    std::memcpy(&v, b, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }
  uint8_t u8() { return get<uint8_t>(); }
  uint32_t u32() { return get<uint32_t>(); }
  uint64_t u64() { return get<uint64_t>(); }
  int64_t i64() { return get<int64_t>(); }
  double f64() { return get<double>(); }
  bool boolean() { return get<uint8_t>() != 0; }
  std::string str() { return take(u32(), "a string"); }
  std::string blob() { return take(u64(), "a blob of bytes"); }
  std::vector<double> f64s() {
    std::vector<double> v(count(8, "numbers"));
    for (double& x : v) x = f64();
    return v;
  }
  // A count of items of at least `min_bytes` each: refused when the bytes left cannot hold them
  // (a damaged count cannot make the reader allocate gigabytes).
  uint64_t count(size_t min_bytes, const char* what) {
    const uint64_t n = u64();
    if (!failed() && min_bytes && n > left() / min_bytes)
      fail("the count of " + std::string(what) + " (" + std::to_string(n) + ") in " + source_ + " is more than its bytes can hold");
    return failed() ? 0 : n;
  }
  // Records the first fault (and throws it in Throw mode); every later read gives zeros.
  void fail(std::string why) {
    if (error_.empty()) error_ = std::move(why);
    pos_ = in_.size();
    if (mode_ == Throw) throw ByteError(error_);
  }
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }
  size_t left() const { return in_.size() - pos_; }
  bool done() const { return pos_ == in_.size(); }

 private:
  bool need(uint64_t n, const char* what) {
    if (failed()) return false;
    if (left() < n) {
      fail(source_ + " ends in the middle of " + what + " (" + std::to_string(left()) + " bytes left, " + std::to_string(n) +
           " needed)");
      return false;
    }
    return true;
  }
  std::string take(uint64_t n, const char* what) {
    if (!need(n, what)) return {};
    std::string s(in_.substr(pos_, size_t(n)));
    pos_ += size_t(n);
    return s;
  }

  std::string_view in_;
  std::string source_;
  Mode mode_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace ws
