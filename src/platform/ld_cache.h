#pragma once
// /etc/ld.so.cache as glibc's loader reads it: the one parser of it in gpucheck. Formats: "glibc-ld.so.cache1.1"
// (optionally behind the old "ld.so-1.7.0" table) and, for very old images, the old table alone. Entries
// keep the cache's order, which is the order the loader searches; lookups take this host's ABI flags and
// the first match wins.
//
// Error policy (one for every caller): parse() throws InputError on a malformed cache; load() treats an
// absent file as an empty cache (the loader then uses only its default directories). Each caller decides
// what a malformed cache means to it: `gpucheck abi` stops (exit 2: the cache it was pointed at is bad),
// the inventory records a note and carries on (inventory/loader_cache.h).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpucheck::platform {

struct LdCacheEntry {
  std::string name;   // soname key, "libz.so.1"
  std::string path;   // "/lib/x86_64-linux-gnu/libz.so.1"
  std::int32_t flags = 0;
  std::uint64_t hwcap = 0;  // non-zero: a hwcap subdirectory variant (old-format entries have none)
};

class LdCache {
 public:
  /// Parses cache bytes; throws InputError naming `origin` on a malformed cache (bad magic, counts or
  /// string offsets outside the file).
  static LdCache parse(std::string_view bytes, const std::string& origin = "ld.so.cache");
  /// Reads and parses a cache file; a missing file gives an empty cache.
  static LdCache load(const std::string& path = "/etc/ld.so.cache");
  /// An empty cache that says where it (did not) come from: "/etc/ld.so.cache (absent)".
  static LdCache empty(const std::string& origin);

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

/// True for an entry of this host's ELF type and multilib flavour (x86-64 libc6 on x86-64), hwcap
/// variants included.
bool is_host_entry(const LdCacheEntry& e);

}  // namespace gpucheck::platform
