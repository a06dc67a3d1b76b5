#pragma once
// stress.gemm's verdict rules, host code with tests: throttling that does not clear (a slowdown reason
// still set over the last quarter of the samples), and a GPU far below its peers (sustained TFLOP/s
// under a share of the median of the other GPUs).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gpucheck::kernels {

/// True when every one of the last ceil(n/4) samples (at least 2) has a slowdown bit set in `reasons`.
/// Samples without a reading are skipped; fewer than 2 readings: false (nothing to conclude).
bool throttle_persists(const std::vector<std::optional<unsigned long long>>& reasons, unsigned long long mask);

/// A peer is "far below" when its value is under `share` of the median of the OTHER GPUs' values
/// (so one slow GPU cannot drag its own reference down). Needs at least 2 GPUs; returns the indices.
std::vector<std::size_t> far_below_peers(const std::vector<double>& values, double share);

}  // namespace gpucheck::kernels
