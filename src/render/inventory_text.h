#pragma once
// The readable, grouped summary `gpucheck env` prints without --json.
#include <map>
#include <string>

#include "inventory/model.h"

namespace gpucheck::inventory {

/// Multi-line text; `verbose` adds every mapped library and every package. `host_compiler_fits` maps a
/// toolkit root to where nvcc's host compiler falls in its range ("inside (gcc 12.2.0 is within 6 .. 15)"),
/// as the report's host_compiler section says; a toolkit without an entry gets no such line.
std::string render_summary(const Inventory& inv, bool verbose,
                           const std::map<std::string, std::string>& host_compiler_fits = {});

}  // namespace gpucheck::inventory
