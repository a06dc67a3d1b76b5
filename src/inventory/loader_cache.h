#pragma once
// The inspected system's /etc/ld.so.cache, read once per collection and shared by every lookup that asks
// "where would the loader find X" (driver, libstdc++ and glibc, the library scan, the cuBLAS prefetch).
// The inventory's side of the parser's error policy (platform/ld_cache.h): a malformed or unreadable cache
// is not fatal to `gpucheck env`; the cache is then empty and `note` says why, so the document shows that
// cache lookups had nothing to go on instead of silently finding nothing.
#include <string>

#include "platform/ld_cache.h"
#include "platform/root_fs.h"

namespace gpucheck::inventory {

struct LoaderCache {
  platform::LdCache cache;
  std::string note;  // "" or "ld.so.cache unreadable: <reason>"
};

/// Absent file: an empty cache and no note (the loader then searches only its default directories).
LoaderCache read_loader_cache(const platform::RootFs& fs);

}  // namespace gpucheck::inventory
