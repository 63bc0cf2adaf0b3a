// A record's field list (visit_fields, ws/trace/field_codec.h) held to what travels: each leaf
// field of the list (a field that is not itself a record with a list) is changed alone from its
// default, sent, read back, and must come back changed while every other leaf stays as it was.
// The list is then the codec's coverage, and a field it lacks is caught by the record's size.
//
//   expect_every_leaf_travels_alone<RunResult>([](const RunResult& r) { ... bytes ... },
//                                              [](const std::string& b) { ... RunResult ... });
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ws/trace/field_codec.h"
#include "ws/trace/trace_io.h"

namespace ws::test {

// A leaf's value as text (what the test compares), and a change of it away from any value.
inline std::string text_of(const std::string& v) { return "'" + v + "'"; }
inline std::string text_of(bool v) { return v ? "true" : "false"; }
inline std::string text_of(const Dim3& d) { return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z); }
inline std::string text_of(const Trace& t) { return "trace of " + t.launch.kernel + " (" + std::to_string(serialize_trace(t).size()) + " bytes)"; }
template <class T>
std::string text_of(const T& v);
template <class A, class B>
std::string text_of(const std::pair<A, B>& p) { return "(" + text_of(p.first) + ", " + text_of(p.second) + ")"; }
template <class T>
std::string text_of(const std::vector<T>& v) {
  std::string s = "[";
  for (const T& x : v) s += text_of(x) + ";";
  return s + "]";
}
template <class K, class T>
std::string text_of(const std::map<K, T>& m) {
  std::string s = "{";
  for (const auto& [k, x] : m) s += text_of(k) + "=" + text_of(x) + ";";
  return s + "}";
}
template <class T>
std::string text_of(const T& v) {
  if constexpr (std::is_enum_v<T>) return "enum " + std::to_string(int(v));
  else if constexpr (std::is_arithmetic_v<T>) return std::to_string(v);
  else {
    std::string s = "{";
    visit_fields(v, [&](const char* name, const auto& f) { s += std::string(name) + ": " + text_of(f) + "; "; });
    return s + "}";
  }
}

inline void change(std::string& v) { v += "changed"; }
inline void change(bool& v) { v = !v; }
inline void change(Dim3& d) { d = {d.x + 5, d.y + 2, d.z + 1}; }
inline void change(Trace& t) { t.launch.kernel += "changed", t.launch.grid = {3, 1, 1}, t.total_blocks = 1; }
template <class T>
void change(T& v);
template <class A, class B>
void change(std::pair<A, B>& p) { change(p.first), change(p.second); }
template <class T>
void change(std::vector<T>& v) {
  T x{};
  change(x);
  v.push_back(std::move(x));
}
template <class K, class T>
void change(std::map<K, T>& m) {
  K k{};
  change(k);
  change(m[k]);
}
template <class T>
void change(T& v) {
  if constexpr (std::is_enum_v<T>) v = T(int(v) == 0 ? 1 : 0);
  else if constexpr (std::is_floating_point_v<T>) v = v * 3 + 0.25;
  else if constexpr (std::is_arithmetic_v<T>) v = T(v * 3 + 7);
  else visit_fields(v, [](const char*, auto& f) { change(f); });
}

// Every leaf of `r`'s list, named by its path ("timing.reps"), as text.
template <class R>
void leaves(const R& r, const std::string& prefix, std::vector<std::string>& out) {
  visit_fields(r, [&](const char* name, const auto& f) {
    using F = std::remove_cvref_t<decltype(f)>;
    if constexpr (HasFieldList<F>) leaves(f, prefix + name + ".", out);
    else out.push_back(prefix + name + " = " + text_of(f));
  });
}
template <class R>
std::vector<std::string> leaves(const R& r) {
  std::vector<std::string> out;
  leaves(r, "", out);
  return out;
}
// Changes the k-th leaf of `r` (counting as leaves() does); `seen` counts the leaves passed.
template <class R>
void change_leaf(R& r, size_t k, size_t& seen) {
  visit_fields(r, [&](const char*, auto& f) {
    using F = std::remove_cvref_t<decltype(f)>;
    if constexpr (HasFieldList<F>) change_leaf(f, k, seen);
    else if (seen++ == k) change(f);
  });
}

template <class R>
void expect_every_leaf_travels_alone(const std::function<std::string(const R&)>& send,
                                     const std::function<R(const std::string&)>& receive) {
  const std::vector<std::string> defaults = leaves(R{});
  ASSERT_FALSE(defaults.empty());
  for (size_t k = 0; k < defaults.size(); ++k) {
    R r{};
    size_t seen = 0;
    change_leaf(r, k, seen);
    const std::vector<std::string> sent = leaves(r);
    ASSERT_NE(sent[k], defaults[k]) << "the change did not change " << defaults[k];
    EXPECT_EQ(leaves(receive(send(r))), sent) << "changed " << sent[k];
  }
}

}  // namespace ws::test
