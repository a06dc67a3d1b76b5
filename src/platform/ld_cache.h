#pragma once
// /etc/ld.so.cache as glibc's loader reads it: the "glibc-ld.so.cache1.1" format (optionally behind the
// old "ld.so-1.7.0" table), entries filtered to this host's ABI flags, first match wins.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpucheck::abi {

struct LdCacheEntry {
  std::string name;   // soname key, "libz.so.1"
  std::string path;   // "/lib/x86_64-linux-gnu/libz.so.1"
  std::int32_t flags = 0;
  std::uint64_t hwcap = 0;
};

class LdCache {
 public:
  /// Parses cache bytes; throws InputError naming `origin` on a malformed cache (bad magic, counts or
  /// string offsets outside the file).
  static LdCache parse(std::string_view bytes, const std::string& origin = "ld.so.cache");
  /// Reads and parses a cache file; a missing file gives an empty cache (the loader then uses only
  /// the default directories).
  static LdCache load(const std::string& path = "/etc/ld.so.cache");

  /// The path the loader would take for `soname`: first entry with this host's flags and no hwcap
  /// subdirectory requirement.
  std::optional<std::string> lookup(std::string_view soname) const;
  const std::vector<LdCacheEntry>& entries() const { return entries_; }
  const std::string& origin() const { return origin_; }

 private:
  std::vector<LdCacheEntry> entries_;
  std::string origin_;
};

/// ld.so.cache flag value of this host's libraries (FLAG_ELF_LIBC6 | FLAG_X8664_LIB64 on x86-64).
std::int32_t host_cache_flags();

}  // namespace gpucheck::abi
