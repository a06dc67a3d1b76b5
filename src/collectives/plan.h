#pragma once
// The list of collective checks one run performs, identical on every rank (it depends only on the options
// and the world size), so per-rank results can be matched by case key when rank 0 merges them.
#include <cstddef>
#include <string>
#include <vector>

#include "collectives/dtype.h"
#include "collectives/layout.h"
#include "collectives/options.h"

namespace gpucheck::collectives {

enum class CaseKind {
  kSweep,         // one collective at one size, timed (busbw) and verified
  kCheck,         // one collective, verified only (max/avg, flags, scalars, DistributedParameter shards)
  kLayoutGather,  // BMTrain block forward: grouped all-gathers of every dtype group in one group call
  kLayoutReduce   // BMTrain block backward: grouped reduce-scatters, twice, with gradient accumulation
};

struct CaseSpec {
  std::string key;   // unique and stable: "sweep.all_reduce.sum.fp16.1048576.out"
  std::string label; // what a reader sees: "all_reduce sum fp16 1 MiB out-of-place"
  CaseKind kind = CaseKind::kSweep;
  CollOp op = CollOp::kAllReduce;
  RedOp redop = RedOp::kNone;
  DType dtype = DType::kF32;
  std::size_t count = 0;  // per-rank send count (all-gather), recv count (reduce-scatter), buffer count;
                          // layouts: elements each rank stores over all groups
  bool in_place = false;
  int root = 0;
  bool flag = false, flag_none = false;  // uint8 overflow flag set by one rank / by none
  std::vector<ZeroLayout> layouts;       // kLayout*: one per dtype group

  std::size_t bytes(int world) const;    // nccl-tests' S (for layouts: all groups together)
};

std::vector<CaseSpec> make_plan(const Options& o, int world);

/// "1 MiB", "7 B", "1.5 KiB".
std::string format_bytes(std::size_t b);

}  // namespace gpucheck::collectives
