#pragma once
// nvcc's host compiler range per toolkit. The toolkit's include/crt/host_config.h is authoritative for
// what nvcc refuses: its `#if <condition>` / `#error -- unsupported GNU version!` (and `... clang version!`)
// guards are evaluated for every compiler version, whatever shape the condition has in that release
// (`__GNUC__ > 15`; CUDA 7's `__GNUC__ > 4 || (__GNUC__ == 4 && __GNUC_MINOR__ > 9)`; clang's
// `(__clang_major__ >= 21) || (__clang_major__ < 3) || ...`). Bounds no guard enforces (gcc's minimum,
// a guard whose #error was edited out) come from NVIDIA's support policy (data/compat/host_compilers.json).
// These are facts about the toolkit; where a compiler falls in them is judged in checks/compiler.
#include <optional>
#include <string>
#include <vector>

#include "inventory/model.h"
#include "knowledge/knowledge_base.h"

namespace gpucheck::inventory {

/// The bounds host_config.h `text` enforces with #error, gcc first, then clang. A family without a guard,
/// or with one this reader cannot evaluate, is left out (never guessed).
std::vector<HostCompilerRange> parse_host_config(const std::string& text, const std::string& source);

/// gcc and clang ranges: the enforced bounds as they are, every missing bound from `policy` (not enforced;
/// its source reads "data/compat/host_compilers.json (CUDA X.Y: <url>)"). Ranges already complete stay as they
/// are, so a range the collector completed is not changed by completing it again.
std::vector<HostCompilerRange> complete_host_compiler_ranges(std::vector<HostCompilerRange> enforced,
                                                             const std::optional<knowledge::HostCompilerPolicy>& policy);

}  // namespace gpucheck::inventory
