#pragma once
// Reads /etc/ld.so.cache directly (the file `ldconfig -p` prints), so it also works on a --root image where
// nothing may be executed. Entries keep the cache's order, which is the order the dynamic loader searches.
#include <string>
#include <vector>

namespace gpucheck::inventory {

struct LdCacheEntry {
  std::string soname;
  std::string path;
  int flags = 0;
};

/// Parses cache bytes (old "ld.so-1.7.0" + new "glibc-ld.so.cache1.1" formats); empty on garbage.
std::vector<LdCacheEntry> parse_ld_cache(const std::string& bytes);

/// True for entries of this process's architecture (x86-64 libc6 on x86-64 hosts).
bool is_native_entry(const LdCacheEntry& e);

}  // namespace gpucheck::inventory
