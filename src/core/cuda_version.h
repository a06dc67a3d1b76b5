#pragma once
// CUDA's integer version encoding (1000 * major + 10 * minor: cuDriverGetVersion, cudaRuntimeGetVersion,
// the CUDA_VERSION macro) as text, and back. In core so probes, inventory, checks and renderers all
// print a version the same way.
#include <string>

namespace gpucheck {

/// 12040 -> "12.4", 11080 -> "11.8", 13000 -> "13.0"; "" for 0 or less (no driver, unknown).
std::string cuda_int_to_string(int v);

/// The other way: "12.4" -> 12040, "12.2.1" -> 12020; 0 unless the first two dotted parts are numbers below 100.
int cuda_string_to_int(const std::string& text);

}  // namespace gpucheck
