#pragma once
// Fields of a report read for display. The report may come from another node (`gpucheck report FILE`), so a
// field can be missing or of any type: each reader gives its neutral value then, never throws, and never
// converts a float such as 6.7e77 to int (undefined behaviour in nlohmann's get<int>(): UBSan).
#include <cmath>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

namespace gpucheck::render {

/// `j[key]` when it is a string, else "".
inline std::string text_at(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

/// `j[key]` when it is a number, else NaN.
inline double number_at(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : NAN;
}

/// `j[key]` when it is a whole number from 0 to INT_MAX (a count, a version code), else 0.
inline int count_at(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end()) return 0;
  if (it->is_number_unsigned())
    return it->get<std::uint64_t>() <= std::uint64_t(std::numeric_limits<int>::max()) ? int(it->get<std::uint64_t>()) : 0;
  if (it->is_number_integer()) {
    auto v = it->get<std::int64_t>();
    return v >= 0 && v <= std::numeric_limits<int>::max() ? int(v) : 0;
  }
  return 0;
}

}  // namespace gpucheck::render
