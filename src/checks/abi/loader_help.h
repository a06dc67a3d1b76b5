#pragma once
// What this host's dynamic loader searches, from `ld.so --help` (glibc >= 2.33): the system directories, the
// AT_PLATFORM and the hwcaps subdirectories. The answer depends only on the loader binary and the CPU, so it
// is remembered in gpucheck's cache directory keyed by both: asking costs a child process, a large part of
// `gpucheck abi` on one library.
#include <string>
#include <vector>

namespace gpucheck::abi {

struct LoaderHelp {
  std::vector<std::string> system_dirs;
  std::string platform;
  std::vector<std::string> glibc_hwcaps;  // x86-64-v4, x86-64-v3, ... (supported ones, priority order)
  std::vector<std::string> legacy;        // haswell, tls, avx512_1, x86_64 (searched ones)
  bool from_cache = false;
};

/// Parses `ld.so --help`'s output.
LoaderHelp parse_loader_help(const std::string& text);

/// The key a remembered answer is valid for: the loader file's identity, the CPU's feature words (which
/// hwcaps the loader picks), AT_PLATFORM and GLIBC_TUNABLES (which can mask features).
std::string loader_help_key(const std::string& interpreter);

/// `interpreter --help`, read from `cache_file` when it holds an answer for this key, else asked and
/// stored there (atomically; a cache that cannot be written only costs the next run the child). An
/// unreadable, corrupt or foreign cache is ignored; "" = no cache.
LoaderHelp query_loader_help(const std::string& interpreter, const std::string& cache_file);

/// $XDG_CACHE_HOME/gpucheck/loader-help.json (or ~/.cache/...); "" when there is no cache directory.
std::string default_loader_help_cache();

}  // namespace gpucheck::abi
