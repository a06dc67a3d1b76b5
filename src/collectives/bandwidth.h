#pragma once
// nccl-tests' bandwidth definitions (doc/PERFORMANCE.md): algbw = S / t with GB = 1e9 bytes, where S is
// the per-rank buffer for all-reduce and broadcast and the total gathered/scattered bytes for all-gather
// and reduce-scatter; busbw = algbw * factor, factor 2(n-1)/n for all-reduce, (n-1)/n for all-gather and
// reduce-scatter, 1 for broadcast.
#include <cstddef>
#include <optional>
#include <vector>

#include "collectives/dtype.h"

namespace gpucheck::collectives {

double bus_factor(CollOp op, int world);
/// Bytes S of one collective: count is the per-rank send count for all-gather, the per-rank receive count
/// for reduce-scatter, the buffer count for all-reduce and broadcast.
std::size_t algo_bytes(CollOp op, std::size_t count, DType t, int world);
double algbw_gbps(std::size_t bytes, double seconds);
double busbw_gbps(CollOp op, std::size_t bytes, double seconds, int world);

/// How many of the largest sizes the plateau uses: a quarter of the sweep, at least 3 (or all there are).
std::size_t plateau_points(std::size_t sizes);
/// Median busbw over the largest sizes of a sweep given as (bytes, busbw) pairs in any order. Empty when
/// there is nothing measured. Unlike nccl-tests' "Avg bus bandwidth" it ignores latency-bound sizes.
std::optional<double> plateau_busbw(std::vector<std::pair<std::size_t, double>> points);

double median(std::vector<double> v);

}  // namespace gpucheck::collectives
