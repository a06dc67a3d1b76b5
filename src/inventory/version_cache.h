#pragma once
// Remembers versions read through dlopen, keyed by the file's identity (core/files.h file_identity),
// so a repeated `gpucheck env` does not pay for loading libcublasLt again. A replaced or touched file has
// a new identity and is read afresh; failed reads are never cached (a driver installed later changes them).
#include <map>
#include <string>

#include "inventory/library_version.h"

namespace gpucheck::inventory {

class VersionCache {
 public:
  /// Loads `file` ("" = no cache: every call is a miss and save() does nothing). A missing or corrupt
  /// file is an empty cache.
  explicit VersionCache(std::string file);

  bool lookup(const std::string& path, VersionReading& out) const;
  void store(const std::string& path, const VersionReading& reading);
  /// Writes the cache atomically when something was stored; errors are ignored (a cache is optional).
  void save() const;

 private:
  std::string file_;
  std::map<std::string, std::pair<std::string, VersionReading>> entries_;  // path -> (identity, reading)
  bool dirty_ = false;
};

/// $XDG_CACHE_HOME/gpucheck/library-versions.json, or ~/.cache/...; "" when neither is known.
std::string default_version_cache_file();

}  // namespace gpucheck::inventory
