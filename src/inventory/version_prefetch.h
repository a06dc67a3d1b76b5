#pragma once
// Starts the cuBLAS version reads before anything else of `gpucheck env` runs. Reading cuBLAS's version
// means loading libcublasLt (~0.5 GB: the loader relocates it and runs its constructors), ~80 ms in a child
// on a quiet machine: longer than all other lookups together. Started first, it overlaps them instead of
// starting after the toolkit and library scans. The places looked at are the quick ones (CUDA_HOME,
// CUDA_PATH, /usr/local/cuda lib dirs, LD_LIBRARY_PATH, the ld.so cache); the full library scan takes each
// finished reading by real path and reads whatever this did not cover itself, so nothing is lost when a
// guess misses, and a reading is the same `gpucheck-libversion` dlopen either way.
#include <future>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "inventory/library_version.h"
#include "platform/ld_cache.h"
#include "platform/root_fs.h"
#include "inventory/toolkit_scan.h"

namespace gpucheck::inventory {

class VersionPrefetch {
 public:
  /// Starts one child per directory holding cuBLAS libraries whose reading the cache (`cache_file`, "" = none)
  /// does not already have. Does nothing unless `fs` is the live machine. `ld_cache`: the loader cache
  /// (read_loader_cache), one of the places looked at.
  void start(const platform::RootFs& fs, const EnvMap& env, const std::string& cache_file, const platform::LdCache& ld_cache);

  /// Whether a child was started for this real path.
  bool covers(const std::string& path) const { return by_path_.count(path) != 0; }
  /// The reading of `path` (waits for its child); nullopt when not covered.
  std::optional<VersionReading> take(const std::string& path) const;
  /// Real paths the prefetch started children for (tests, trace).
  std::vector<std::string> paths() const;

 private:
  std::map<std::string, std::shared_future<std::map<std::string, VersionReading>>> by_path_;
};

}  // namespace gpucheck::inventory
