// A record to and from JSON through its field list (visit_fields, the same lists the byte codec
// reads: ws/trace/field_codec.h). Every listed field is written; reading wants every one, each of
// its type, and names the first that is missing or wrong, where it is:
//
//   nlohmann::json j = to_json_fields(timeline);
//   StreamTimeline back;
//   if (std::string err = from_json_fields(j, back); !err.empty())
//     puts(err.c_str());   // "scenario 2, op 1: \"kind\" is 'teleport', not host, kernel, HtoD, DtoH or DtoD"
//
// An enum is written as its name (`to_string(E)`, values 0 to `enum_last(E{})`); a list item is
// named by the list's name less its last letter and its number from 1 ("ops" -> "op 3").
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "ws/trace/field_codec.h"

namespace ws {

template <class T>
nlohmann::json to_json_fields(const T& v);

inline nlohmann::json to_json_field(const std::string& v) { return v; }
inline nlohmann::json to_json_field(const Dim3& d) { return nlohmann::json::array({d.x, d.y, d.z}); }
template <class T>
nlohmann::json to_json_field(const T& v) {
  if constexpr (std::is_enum_v<T>) return to_string(v);
  else if constexpr (std::is_arithmetic_v<T>) return v;
  else return to_json_fields(v);
}
template <class T>
nlohmann::json to_json_field(const std::vector<T>& v) {
  nlohmann::json a = nlohmann::json::array();
  for (const T& x : v) a.push_back(to_json_field(x));
  return a;
}
template <class T>
nlohmann::json to_json_field(const std::map<std::string, T>& m) {
  nlohmann::json o = nlohmann::json::object();
  for (const auto& [k, x] : m) o[k] = to_json_field(x);
  return o;
}

template <class T>
nlohmann::json to_json_fields(const T& v) {
  nlohmann::json j = nlohmann::json::object();
  visit_fields(v, [&](const char* name, const auto& f) { j[name] = to_json_field(f); });
  return j;
}

namespace json_fields_detail {

inline std::string at(const std::string& where, const std::string& what) { return where.empty() ? what : where + ": " + what; }

// Numbers beyond this are not times, sizes or counts of anything warpscope records.
inline constexpr double kLargest = 1e15;

template <class T>
std::string read(const nlohmann::json& j, T& v, const std::string& key, const std::string& where);

inline std::string read(const nlohmann::json& j, std::string& v, const std::string& key, const std::string& where) {
  if (!j.is_string()) return at(where, "\"" + key + "\" is not a string");
  v = j.get<std::string>();
  return {};
}

template <class T>
std::string read(const nlohmann::json& j, std::vector<T>& v, const std::string& key, const std::string& where) {
  if (!j.is_array()) return at(where, "\"" + key + "\" is not a list");
  v.clear();
  const std::string item = key.size() > 1 ? key.substr(0, key.size() - 1) : key;
  for (size_t i = 0; i < j.size(); ++i) {
    const std::string here = (where.empty() ? "" : where + ", ") + item + " " + std::to_string(i + 1);
    if (std::string e = read(j[i], v.emplace_back(), item, here); !e.empty()) return e;
  }
  return {};
}

template <class T>
std::string read(const nlohmann::json& j, T& v, const std::string& key, const std::string& where) {
  if constexpr (std::is_same_v<T, bool>) {
    if (!j.is_boolean()) return at(where, "\"" + key + "\" is not true or false");
    v = j.get<bool>();
  } else if constexpr (std::is_enum_v<T>) {
    std::string names, given = j.is_string() ? j.get<std::string>() : j.dump();
    for (int k = 0; k <= int(enum_last(T{})); ++k) {
      if (given == to_string(T(k))) return v = T(k), std::string();
      names += std::string(k == 0 ? "" : k == int(enum_last(T{})) ? " or " : ", ") + to_string(T(k));
    }
    return at(where, "\"" + key + "\" is '" + given + "', not " + names);
  } else if constexpr (std::is_integral_v<T>) {
    const bool ok = std::is_signed_v<T> ? j.is_number_integer() : j.is_number_unsigned();
    using Limits = std::numeric_limits<T>;
    if (!ok || (std::is_signed_v<T> ? (j.get<int64_t>() < int64_t(Limits::min()) || j.get<int64_t>() > int64_t(Limits::max()))
                                    : j.get<uint64_t>() > uint64_t(Limits::max())))
      return at(where, "\"" + key + "\" is not a whole number from " + std::to_string(Limits::min()) + " to " +
                           std::to_string(Limits::max()));
    v = j.get<T>();
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!j.is_number()) return at(where, "\"" + key + "\" is not a number");
    const double x = j.get<double>();
    if (!std::isfinite(x) || std::fabs(x) > kLargest) return at(where, "\"" + key + "\" is out of range");
    v = T(x);
  } else {
    if (!j.is_object()) return at(where, "\"" + key + "\" is not a table");
    std::string err;
    visit_fields(v, [&](const char* name, auto& f) {
      if (!err.empty()) return;
      if (!j.contains(name)) err = at(where, "\"" + std::string(name) + "\" is missing");
      else err = read(j[name], f, name, where);
    });
    return err;
  }
  return {};
}

}  // namespace json_fields_detail

// "" or the first field that is missing or not of its type; `v` holds what was read up to there.
template <class T>
std::string from_json_fields(const nlohmann::json& j, T& v, const std::string& where = {}) {
  if (!j.is_object()) return json_fields_detail::at(where, "not a table");
  return json_fields_detail::read(j, v, "", where);
}

}  // namespace ws
