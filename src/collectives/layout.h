#pragma once
// BMTrain's ZeRO-3 storage layout (specs/bmtrain.md section 2.3): the parameters of one dtype group are
// packed into one flat buffer, each starting on a 512-byte boundary; the total (also aligned) is padded to
// a multiple of the world size W and split into W partitions of ceil(total / W) elements.
#include <cstddef>
#include <vector>

#include "collectives/dtype.h"

namespace gpucheck::collectives {

inline constexpr std::size_t kZeroAlignBytes = 512;

struct ZeroLayout {
  DType dtype = DType::kF16;
  int world = 1;
  std::vector<std::size_t> numels;   // parameter sizes in named_parameters() order
  std::vector<std::size_t> offsets;  // element offset of each parameter in the flat buffer
  std::size_t total = 0;             // aligned end of the last parameter
  std::size_t partition = 0;         // elements each rank stores: ceil(total / W)

  std::size_t padded_total() const { return partition * static_cast<std::size_t>(world); }
  /// Rank that stores flat element `i`.
  int owner(std::size_t i) const { return static_cast<int>(i / partition); }
};

/// Throws InputError for world < 1, an empty list or a zero-sized parameter.
ZeroLayout make_zero_layout(DType dtype, const std::vector<std::size_t>& numels, int world);

/// A standalone DistributedParameter: storage ceil(numel/W); rank r holds [r*s, min(numel,(r+1)*s)).
struct ParamShard {
  std::size_t storage = 0;  // s
  std::size_t begin = 0, end = 0;
};
ParamShard param_shard(std::size_t numel, int world, int rank);

}  // namespace gpucheck::collectives
