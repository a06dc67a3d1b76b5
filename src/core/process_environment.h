#pragma once
// What a spawned process gets instead of a shell: an environment built from this process's own, and the
// NULL-terminated arrays posix_spawn takes. Shared by core/subprocess and the side-by-side benchmark.
#include <map>
#include <string>
#include <vector>

namespace gpucheck {

/// This process's environment with every name in `set` replaced by (or added as) its value and every name
/// in `unset` left out; "NAME=value" entries.
std::vector<std::string> environment_with(const std::map<std::string, std::string>& set,
                                          const std::vector<std::string>& unset = {});

/// Pointers into `strings` followed by nullptr (argv/envp for posix_spawn); valid while `strings` lives
/// unchanged.
std::vector<char*> null_terminated(std::vector<std::string>& strings);

}  // namespace gpucheck
