#pragma once
// What a CUDA runtime needs from the driver, said where a GPU probe cannot reach a GPU: the minimum Linux
// driver for that runtime's release (data/compat/driver.json, NVIDIA's table) and what this machine has. In
// core because every GPU probe links only core; the table itself is knowledge data, not code.
#include <string>

namespace gpucheck {

/// "CUDA 13.0 needs NVIDIA driver >= 580.65.06; no NVIDIA driver is loaded here" or "...; the driver here
/// supports only CUDA 12.2". `runtime`/`driver` in CUDA's integer encoding (13000; driver 0 = none). The
/// table row is the runtime's major.minor; without one (or without the data) the floor is not named.
std::string driver_requirement(int runtime, int driver);

}  // namespace gpucheck
