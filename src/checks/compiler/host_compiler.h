#pragma once
// The host compiler verdict, made once for everyone: which compiler nvcc would invoke (from the inventory's
// facts) and where it falls in a toolkit's range (inventory::HostCompilerRange, the toolkit's host_config.h
// completed by NVIDIA's support policy). `gpucheck env` shows it for every toolkit, `gpucheck doctor` for
// the toolkit an extension build would use; both call judge_host_compiler, so they cannot disagree.
#include <optional>
#include <string>
#include <vector>

#include "core/finding.h"
#include "inventory/model.h"
#include "knowledge/knowledge_base.h"

namespace gpucheck::compiler {

/// The compiler nvcc would invoke, as the inventory describes it.
struct HostCompilerChoice {
  std::optional<inventory::Compiler> compiler;  // nullopt: none found
  std::string how;     // "NVCC_CCBIN", "gcc on PATH, nvcc's default"
  std::string family;  // "gcc" or "clang"; "" when none
};

/// The inventory's nvcc_host_compiler with its compiler entry (for the version); for a document that does
/// not record one, the collector's rule (inventory::nvcc_compiler_entry) applied to its compiler list.
HostCompilerChoice choose_host_compiler(const inventory::Inventory& inv);

/// "gcc" or "clang" for a compiler entry, by its name or path.
std::string compiler_family(const inventory::Compiler& c);

/// Where one compiler falls in a toolkit's ranges.
struct HostCompilerFit {
  std::string compiler;            // its path ("/usr/bin/gcc"); empty: none found
  std::string family;              // "gcc" or "clang"
  std::string version;             // "12.2.0"
  std::string status = "unknown";  // "inside", "above_max", "below_min", "unknown"
  bool enforced = false;           // the bound it crosses is host_config.h's: every nvcc compile fails
  std::string reason;              // "gcc 12.2.0 is within 6 .. 15"
};

/// Where `compiler` (nullptr: none found) falls in `ranges`. Bounds compare by major, or by major.minor
/// where a bound has a minor ("4.9", "3.3").
HostCompilerFit fit_host_compiler(const std::vector<inventory::HostCompilerRange>& ranges,
                                  const inventory::Compiler* compiler, const std::string& family);

/// The toolkit's ranges as the inventory records them, with the bounds it lacks (a document written by hand
/// or before ranges were recorded) filled from `kb`'s support policy for its release; `kb` may be nullptr.
std::vector<inventory::HostCompilerRange> host_compiler_ranges(const inventory::Toolkit& tk,
                                                               const knowledge::KnowledgeBase* kb);

/// The verdict for toolkit `tk` of `inv`: compiler.fits_nvcc (pass), compiler.too_new_for_nvcc (fail),
/// compiler.too_old_for_nvcc (warn) or compiler.fit_unknown (skip), with evidence, explanation, ranked fixes
/// and details {toolkit, toolkit_version, compiler, family, version, chosen_by, fit, enforced, range}.
Finding judge_host_compiler(const inventory::Inventory& inv, const inventory::Toolkit& tk,
                            const knowledge::KnowledgeBase* kb);

/// judge_host_compiler for every toolkit of `inv`, in inventory order.
std::vector<Finding> judge_host_compilers(const inventory::Inventory& inv, const knowledge::KnowledgeBase* kb);

}  // namespace gpucheck::compiler
