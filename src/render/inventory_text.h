#pragma once
// The readable, grouped summary `gpucheck env` prints without --json.
#include <string>

#include "inventory/model.h"

namespace gpucheck::inventory {

/// Multi-line text; `verbose` adds every mapped library and every package.
std::string render_summary(const Inventory& inv, bool verbose);

}  // namespace gpucheck::inventory
