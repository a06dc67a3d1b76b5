#pragma once
// The few facts about the stack a reader of a pasted summary or a dashboard needs first (driver, GPUs,
// CUDA toolkits, Python and torch), read from the inventory a Report embeds. Shared by the Markdown and
// Prometheus renderers so both name the same things the same way.
#include <string>
#include <utility>
#include <vector>

#include "model/report.h"

namespace gpucheck::render {

/// Ordered (name, value) pairs: "driver", "CUDA (driver)", "GPUs", "toolkits", "python", "torch".
/// Empty when the report has no inventory; a missing fact is left out, never guessed.
std::vector<std::pair<std::string, std::string>> stack_facts(const model::Report& r);

}  // namespace gpucheck::render
