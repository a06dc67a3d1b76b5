#pragma once
// Fat-binary entry headers remembered per file between runs. libcublasLt's 5,737 entries take about 2,300
// reads of its 500 MB file (the larger part of `abi`'s time, almost all of it in the kernel), and the
// entries of a file that did not change are the same. Kept under cache_dir()/fatbin/, one file per
// library and section, keyed by the file's identity (device, inode, size, mtime, ctime: core/files.h);
// written atomically, checked when read (exact size, every field in range): anything unexpected means
// "parse it again".
#include <optional>
#include <string>
#include <vector>

#include "checks/abi/fatbin.h"

namespace gpucheck::abi {

/// The entries remembered for `section` of the file at `path`, or nullopt (none, another identity, or a
/// cache file that does not read back exactly). `dir` "" = cache_dir()/fatbin.
std::optional<std::vector<FatbinEntry>> cached_fatbin(const std::string& path, const std::string& section,
                                                      const std::string& dir = "");

/// Remembers them; a cache that cannot be written (read-only home, full disk) is skipped silently.
void remember_fatbin(const std::string& path, const std::string& section, const std::vector<FatbinEntry>& entries,
                     const std::string& dir = "");

}  // namespace gpucheck::abi
