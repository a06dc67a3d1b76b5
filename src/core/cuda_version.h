#pragma once
// CUDA's integer version encoding (1000 * major + 10 * minor: cuDriverGetVersion, cudaRuntimeGetVersion,
// the CUDA_VERSION macro) as text. One function, in core so probes, inventory, checks and renderers all
// print a version the same way.
#include <string>

namespace gpucheck {

/// 12040 -> "12.4", 11080 -> "11.8", 13000 -> "13.0"; "" for 0 or less (no driver, unknown).
std::string cuda_int_to_string(int v);

}  // namespace gpucheck
