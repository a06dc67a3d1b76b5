#pragma once
// FNV-1a, 64 bits: stable across builds and platforms (std::hash is not). For cache keys and file names,
// never against an adversary.
#include <cstdint>
#include <cstdio>
#include <string>

namespace gpucheck {

inline std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

/// fnv1a(s) as 16 hex digits.
inline std::string fnv1a_hex(const std::string& s) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a(s)));
  return hex;
}

}  // namespace gpucheck
