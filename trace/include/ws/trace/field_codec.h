// A record written and read through its field list: each field by its type, with util's byte
// codec (ws/util/byte_codec.h). A record type has a field list when `visit_fields(record, v)`
// calls v(name, field) for each of its fields (found by argument-dependent lookup beside the
// record: ws/trace/diagnostic_fields.h, ws/run/result_fields.h, ws/run/config_fields.h); such a
// record is written field after field, recursively. A trace is written as its .wst bytes.
//
//   ByteWriter w;  put_field(w, result);           // every field of the list, in its order
//   ByteReader r(w.bytes(), "a message", ByteReader::Throw);  get_field(r, back);
//
// An enum is one byte, checked on reading against `enum_last(E{})`, declared beside the enum.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ws/trace/trace.h"
#include "ws/trace/trace_io.h"
#include "ws/util/byte_codec.h"

namespace ws {

template <class T>
concept HasFieldList = requires(T& t) { visit_fields(t, [](const char*, auto&) {}); };

template <class T>
void put_field(ByteWriter& w, const T& v);
// `name`: the field's, for an error ("a value of 7 for severity, where the list has 3 choices").
template <class T>
void get_field(ByteReader& r, T& v, const char* name = "a field");

inline void put_field(ByteWriter& w, const std::string& v) { w.str(v); }
inline void get_field(ByteReader& r, std::string& v, const char* = nullptr) { v = r.str(); }
inline void put_field(ByteWriter& w, const Dim3& d) { w.u32(d.x), w.u32(d.y), w.u32(d.z); }
inline void get_field(ByteReader& r, Dim3& d, const char* = nullptr) { d.x = r.u32(), d.y = r.u32(), d.z = r.u32(); }
inline void put_field(ByteWriter& w, const std::vector<uint8_t>& v) {
  w.blob(std::string_view(reinterpret_cast<const char*>(v.data()), v.size()));
}
inline void get_field(ByteReader& r, std::vector<uint8_t>& v, const char* = nullptr) {
  const std::string b = r.blob();
  v.assign(b.begin(), b.end());
}
inline void put_field(ByteWriter& w, const Trace& t) { w.blob(serialize_trace(t)); }
inline void get_field(ByteReader& r, Trace& t, const char* = nullptr) {
  const std::string bytes = r.blob();
  if (r.failed()) return;
  LoadResult loaded = deserialize_trace(bytes);
  if (!loaded.ok()) return r.fail("a trace in it does not read back: " + loaded.error);
  t = std::move(loaded.trace);
}
template <class A, class B>
void put_field(ByteWriter& w, const std::pair<A, B>& p) {
  put_field(w, p.first);
  put_field(w, p.second);
}
template <class A, class B>
void get_field(ByteReader& r, std::pair<A, B>& p, const char* name = "a field") {
  get_field(r, p.first, name);
  get_field(r, p.second, name);
}
template <class T>
void put_field(ByteWriter& w, const std::vector<T>& v) {
  w.u64(v.size());
  for (const T& x : v) put_field(w, x);
}
template <class T>
void get_field(ByteReader& r, std::vector<T>& v, const char* name = "a field") {
  v.clear();
  for (uint64_t i = 0, n = r.count(1, name); i < n && !r.failed(); ++i) get_field(r, v.emplace_back(), name);
}
template <class K, class T>
void put_field(ByteWriter& w, const std::map<K, T>& m) {
  w.u64(m.size());
  for (const auto& [k, x] : m) put_field(w, k), put_field(w, x);
}
template <class K, class T>
void get_field(ByteReader& r, std::map<K, T>& m, const char* name = "a field") {
  m.clear();
  for (uint64_t i = 0, n = r.count(1, name); i < n && !r.failed(); ++i) {
    K k{};
    get_field(r, k, name);
    get_field(r, m[k], name);
  }
}

template <class T>
void put_field(ByteWriter& w, const T& v) {
  if constexpr (std::is_same_v<T, bool>) w.boolean(v);
  else if constexpr (std::is_enum_v<T>) w.u8(uint8_t(v));
  else if constexpr (std::is_arithmetic_v<T>) w.put(v);
  else {
    static_assert(HasFieldList<T>, "a record written by put_field needs visit_fields");
    visit_fields(v, [&](const char*, const auto& f) { put_field(w, f); });
  }
}

template <class T>
void get_field(ByteReader& r, T& v, const char* name) {
  if constexpr (std::is_same_v<T, bool>) v = r.boolean();
  else if constexpr (std::is_enum_v<T>) {
    const uint8_t b = r.u8();
    if (b > uint8_t(enum_last(T{})))
      return r.fail("a value of " + std::to_string(b) + " for " + name + ", where the list has " +
                    std::to_string(int(enum_last(T{})) + 1) + " choices");
    v = T(b);
  } else if constexpr (std::is_arithmetic_v<T>) v = r.get<T>();
  else {
    static_assert(HasFieldList<T>, "a record read by get_field needs visit_fields");
    visit_fields(v, [&](const char* field, auto& f) { get_field(r, f, field); });
  }
}

}  // namespace ws
