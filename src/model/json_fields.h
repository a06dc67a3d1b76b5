#pragma once
// Lenient readers of a JSON document gpucheck may not have written (a report from another node, read back
// by `gpucheck report FILE`): a field can be missing or of any type, so each reader gives its neutral value
// then, never throws, and never converts a float such as 6.7e77 to int (undefined behaviour in nlohmann's
// get<int>(): UBSan). The typed details of model/ are read through these.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpucheck::model {

/// `j[key]`, or null when `j` is not an object or lacks it (a null iterates as empty).
inline const nlohmann::json& member(const nlohmann::json& j, const char* key) {
  static const nlohmann::json kNull;
  if (!j.is_object()) return kNull;
  auto it = j.find(key);
  return it != j.end() ? *it : kNull;
}

/// `j[key]` when it is a string, else "".
inline std::string text_at(const nlohmann::json& j, const char* key) {
  const nlohmann::json& v = member(j, key);
  return v.is_string() ? v.get<std::string>() : "";
}

/// `j[key]` when it is a number, else NaN.
inline double number_at(const nlohmann::json& j, const char* key) {
  const nlohmann::json& v = member(j, key);
  return v.is_number() ? v.get<double>() : NAN;
}

/// `j[key]` when it is a number, else `otherwise`.
inline double number_at(const nlohmann::json& j, const char* key, double otherwise) {
  const nlohmann::json& v = member(j, key);
  return v.is_number() ? v.get<double>() : otherwise;
}

/// `j[key]` when it is a boolean, else false.
inline bool flag_at(const nlohmann::json& j, const char* key) {
  const nlohmann::json& v = member(j, key);
  return v.is_boolean() && v.get<bool>();
}

/// A whole number from 0 to `most` (a count, a line number), else 0.
inline std::uint64_t whole(const nlohmann::json& v, std::uint64_t most = std::numeric_limits<std::uint64_t>::max()) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>() <= most ? v.get<std::uint64_t>() : 0;
  if (v.is_number_integer()) {
    auto n = v.get<std::int64_t>();
    return n >= 0 && std::uint64_t(n) <= most ? std::uint64_t(n) : 0;
  }
  return 0;
}

/// `j[key]` when it is a whole number from 0 to INT_MAX (a count, a version code), else 0.
inline int count_at(const nlohmann::json& j, const char* key) {
  return static_cast<int>(whole(member(j, key), std::uint64_t(std::numeric_limits<int>::max())));
}

/// The strings of the array `j[key]`; entries that are not strings are left out.
inline std::vector<std::string> strings_at(const nlohmann::json& j, const char* key) {
  std::vector<std::string> out;
  const nlohmann::json& v = member(j, key);
  if (v.is_array())
    for (const auto& s : v)
      if (s.is_string()) out.push_back(s.get<std::string>());
  return out;
}

}  // namespace gpucheck::model
