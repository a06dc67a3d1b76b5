#pragma once
// Builders for the fix steps several rules (and `explain`) recommend, so the same advice is spelled the
// same way everywhere. Every command is exact and copy-pasteable; values are shell-quoted.
#include <string>

#include "checks/planner/resolver.h"
#include "core/finding.h"
#include "core/shell_quote.h"
#include "knowledge/knowledge_base.h"
#include "inventory/model.h"

namespace gpucheck::doctor {

using gpucheck::shell_quote;  // core/shell_quote.h

/// Point builds at an installed toolkit: CUDA_HOME, PATH, LD_LIBRARY_PATH exports for this shell.
Fix use_toolkit_step(const inventory::Toolkit& toolkit, int rank);

/// Install the torch of a planner plan (its exact commands, for the judged interpreter); `current` (may be
/// empty) names what it replaces.
Fix install_torch_step(const planner::Plan& plan, const std::string& current, int rank);

/// Install a CUDA toolkit of this major.minor side by side: with conda (where it exists) without root, else
/// NVIDIA's installer (named, no command: its file name is release-specific), then use it.
Fix install_toolkit_step(const std::string& cuda_major_minor, int rank, bool conda);

}  // namespace gpucheck::doctor
