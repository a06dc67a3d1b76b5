#pragma once
// Remembers a Python probe's answer per environment, part by part, each part keyed by what decides it:
//   interpreter  sys.path, prefix, packages listed: the interpreter file, pyvenv.cfg, the environment
//                variables Python reads, and each sys.path directory (a new .pth or dist-info changes it)
//   torch        torch's facts and the libraries `import torch` mapped: torch's and numpy's dist-info
//                and everything they require (RECORD: SHA-256 and identity), where `torch` is found, the
//                loader (ld.so.cache, LD_LIBRARY_PATH, LD_PRELOAD) and the driver (its version, /dev/nvidia*)
//   import D     what `import D` raised after torch: the torch key, D's dist-info and what D requires
// plus, in every key, gpucheck's version and the probe script itself. A changed package invalidates only
// the parts it is part of; the rest is reused and the probe runs for the missing parts only (nothing at
// all when every part is known). The caller is told which part came from where (`facts_from`).
//
// Safe as root: one file per environment in a directory of this user's (mode 0700, not writable by
// others, else neither read nor written), each file owned by this user, a regular file (never followed
// through a link), at most kMaxCacheFileBytes, written atomically (core/files.h); at most
// kMaxCachedEnvironments files (the oldest go). A file that is corrupt, of another format or not trusted is
// no cache: the probe runs.
#include <cstddef>
#include <map>
#include <string>

#include "inventory/model.h"
#include "inventory/python_probe.h"

namespace gpucheck::inventory {

inline constexpr std::size_t kMaxCacheFileBytes = std::size_t{4} << 20;
inline constexpr std::size_t kMaxCachedEnvironments = 64;

/// $XDG_CACHE_HOME/gpucheck/python-envs, or ~/.cache/gpucheck/python-envs; "" when neither is known.
std::string default_python_cache_dir();

/// Where each part of an answer came from: "interpreter", "torch", "import DIST" -> "probe" (asked now)
/// or "cache" (remembered; every fact it rests on unchanged).
using FactsFrom = std::map<std::string, std::string>;

/// probe_python(), reusing what `cache_dir` remembers of this environment ("" = no cache: a plain probe)
/// and remembering the new answer's parts. The interpreter runs in this process's environment.
PythonEnv probe_python_cached(const std::string& interpreter, const std::string& via, const ProbeRequest& req,
                              const std::string& cache_dir, FactsFrom* facts_from = nullptr);

/// The inventory note that names the parts that came from the cache ("" when none did).
std::string cached_facts_note(const std::string& interpreter, const FactsFrom& facts_from);

}  // namespace gpucheck::inventory
