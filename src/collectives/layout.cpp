#include "collectives/layout.h"

#include <algorithm>
#include <string>

#include "core/errors.h"

namespace gpucheck::collectives {

namespace {
std::size_t round_up(std::size_t v, std::size_t m) { return (v + m - 1) / m * m; }
}  // namespace

ZeroLayout make_zero_layout(DType dtype, const std::vector<std::size_t>& numels, int world) {
  if (world < 1) throw InputError("world size must be >= 1, got " + std::to_string(world));
  if (numels.empty()) throw InputError("a ZeRO layout needs at least one parameter");
  ZeroLayout l;
  l.dtype = dtype;
  l.world = world;
  l.numels = numels;
  const std::size_t align = kZeroAlignBytes / dtype_size(dtype);
  std::size_t off = 0;
  for (std::size_t n : numels) {
    if (n == 0) throw InputError("a ZeRO layout parameter has zero elements");
    l.offsets.push_back(off);
    off = round_up(off + n, align);
  }
  l.total = off;
  l.partition = round_up(l.total, static_cast<std::size_t>(world)) / static_cast<std::size_t>(world);
  return l;
}

ParamShard param_shard(std::size_t numel, int world, int rank) {
  ParamShard s;
  s.storage = (numel + static_cast<std::size_t>(world) - 1) / static_cast<std::size_t>(world);
  s.begin = std::min(numel, static_cast<std::size_t>(rank) * s.storage);
  s.end = std::min(numel, s.begin + s.storage);
  return s;
}

}  // namespace gpucheck::collectives
