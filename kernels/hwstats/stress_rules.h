#pragma once
// stress.gemm's throttling rule, host code with tests: a slowdown reason still set over the last quarter
// of the samples. (Its peer rule is THE peer rule, core/peer_outlier.h.)
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gpucheck::kernels {

/// True when every one of the last ceil(n/4) samples (at least 2) has a slowdown bit set in `reasons`.
/// Samples without a reading are skipped; fewer than 2 readings: false (nothing to conclude).
bool throttle_persists(const std::vector<std::optional<unsigned long long>>& reasons, unsigned long long mask);

}  // namespace gpucheck::kernels
