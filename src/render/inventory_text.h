#pragma once
// The readable, grouped summary `gpucheck env` prints without --json.
#include <map>
#include <string>

#include "inventory/model.h"

namespace gpucheck::render {

/// Multi-line text; `verbose` adds every mapped library and every package. `host_compiler_fits` maps a
/// toolkit root to where nvcc's host compiler falls in its range ("inside (gcc 12.2.0 is within 6 .. 15)"),
/// as the report's host_compiler section says; a toolkit without an entry gets no such line.
std::string render_summary(const inventory::Inventory& inv, bool verbose,
                           const std::map<std::string, std::string>& host_compiler_fits = {});

/// The first screen of `gpucheck env`: one line per fact that decides compatibility (system and glibc,
/// driver, GPUs, toolkits and which one PATH, CMake and torch's cpp_extension pick, compilers, the judged
/// Python with torch's CUDA/cuDNN/NCCL and whether CUDA is available, its packages); render_summary (-v)
/// has every detail.
std::string render_brief(const inventory::Inventory& inv, const std::map<std::string, std::string>& host_compiler_fits = {});

}  // namespace gpucheck::render
