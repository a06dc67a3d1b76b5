#include "core/cuda_version.h"

#include <algorithm>

namespace gpucheck {

std::string cuda_int_to_string(int v) {
  if (v <= 0) return "";
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

namespace {

// Digits only, at most six (so no overflow), below 100.
bool part_below_100(const std::string& s, std::size_t b, std::size_t e, int& out) {
  if (e <= b || e - b > 6) return false;
  out = 0;
  for (std::size_t i = b; i < e; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    out = out * 10 + (s[i] - '0');
  }
  return out < 100;
}

}  // namespace

int cuda_string_to_int(const std::string& text) {
  const auto dot = text.find('.');
  if (dot == std::string::npos) return 0;
  const auto end = std::min(text.find('.', dot + 1), text.size());
  int major = 0, minor = 0;
  if (!part_below_100(text, 0, dot, major) || !part_below_100(text, dot + 1, end, minor)) return 0;
  return major * 1000 + minor * 10;
}

}  // namespace gpucheck
