#pragma once
// The per-size table in nccl-tests' layout (size, count, type, redop, root | out-of-place time algbw busbw
// #wrong | in-place ...), one line per sweep size, for people used to reading all_reduce_perf output.
#include <string>
#include <vector>

#include "collectives/merge.h"

namespace gpucheck::collectives {

std::string render_table(const std::vector<Row>& rows);

}  // namespace gpucheck::collectives
