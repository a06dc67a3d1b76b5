#pragma once
// nvcc's host compiler range per toolkit. The toolkit's include/crt/host_config.h is authoritative for
// what nvcc refuses: its `#if <condition>` / `#error -- unsupported GNU version!` (and `... clang version!`)
// guards are evaluated for every compiler version, whatever shape the condition has in that release
// (`__GNUC__ > 15`; CUDA 7's `__GNUC__ > 4 || (__GNUC__ == 4 && __GNUC_MINOR__ > 9)`; clang's
// `(__clang_major__ >= 21) || (__clang_major__ < 3) || ...`). Bounds no guard enforces (gcc's minimum,
// a guard whose #error was edited out) come from NVIDIA's support policy (data/compat/host_compilers.json).
#include <optional>
#include <string>
#include <vector>

#include "inventory/model.h"

namespace gpucheck::inventory {

/// The bounds host_config.h `text` enforces with #error, gcc first, then clang. A family without a guard,
/// or with one this reader cannot evaluate, is left out (never guessed).
std::vector<HostCompilerRange> parse_host_config(const std::string& text, const std::string& source);

/// One row of NVIDIA's support policy for a toolkit release (majors, inclusive).
struct HostCompilerPolicy {
  std::string cuda;    // the row's release ("13.0")
  int gcc_min = 0, gcc_max = 0, clang_min = 0, clang_max = 0;
  std::string source;  // where the row comes from ("data/compat/host_compilers.json (CUDA 13.0: https://...)")
};

/// gcc and clang ranges: the enforced bounds as they are, every missing bound from `policy` (not enforced).
std::vector<HostCompilerRange> complete_host_compiler_ranges(std::vector<HostCompilerRange> enforced,
                                                             const std::optional<HostCompilerPolicy>& policy);

/// "gcc" or "clang" for a compiler entry (by its name or the file it resolves to).
std::string compiler_family(const Compiler& c, const std::string& resolved_path = "");

/// Where `compiler` (nullptr: none found) falls in `ranges`.
HostCompilerFit fit_host_compiler(const std::vector<HostCompilerRange>& ranges, const Compiler* compiler,
                                  const std::string& family);

}  // namespace gpucheck::inventory
