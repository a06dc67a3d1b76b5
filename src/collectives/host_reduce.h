#pragma once
// Element-wise reductions on host memory in the element type's own arithmetic (fp16/bf16 rounded after
// every step, as a GPU reduction kernel does). Used by the MPI transport's user-defined operations and by
// the in-process LocalTransport.
#include <cstddef>

#include "collectives/dtype.h"

namespace gpucheck::collectives {

/// inout[i] = inout[i] (op) in[i] for sum and max (avg is a sum of pre-scaled inputs).
void reduce_into(DType t, RedOp op, void* inout, const void* in, std::size_t n);
/// data[i] *= factor, rounded to the dtype (NCCL's avg pre-multiplies by 1/W).
void scale_in_place(DType t, void* data, std::size_t n, double factor);

}  // namespace gpucheck::collectives
