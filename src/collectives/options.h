#pragma once
// Command-line options of the collectives probe (`collectives.nccl`), parsed from the probe's extra
// arguments. Level-dependent defaults; every bad value is an InputError with one line of explanation.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "collectives/dtype.h"

namespace gpucheck::collectives {

enum class PairsMode { kOff, kAll, kNeighbour };

struct Options {
  std::string level = "standard";
  std::string transport = "nccl";        // nccl | mpi
  std::size_t min_bytes = 8;
  std::size_t max_bytes = std::size_t{1} << 30;  // long; standard 256 MiB, quick 64 MiB, mpi 16 MiB
  std::size_t factor = 2;
  std::vector<CollOp> ops{CollOp::kAllGather, CollOp::kReduceScatter, CollOp::kAllReduce, CollOp::kBroadcast};
  std::vector<DType> dtypes{DType::kF16, DType::kBF16, DType::kF32};
  std::vector<std::size_t> layout_sizes{7, 1237, (std::size_t{1} << 24) + 3};
  bool layout = true;                    // BMTrain layout, flag, scalar, max and avg checks
  int warmup = 5;
  int iters = 20;
  int check_iters = 1;                   // verified runs per case (fresh inputs each)
  double timeout_s = 60;                 // per collective (watchdog)
  std::uint64_t seed = 1;
  std::optional<int> corrupt_rank;       // testing: this rank sends a corrupted contribution
  std::optional<int> hang_rank;          // testing: this rank stops taking part (watchdog must fire)
  std::function<void(const std::string&)> on_phase;  // told each case before it runs ("... case 12 of 40"):
                                                     // the probe's named phase if it hangs (probe::phase)
  std::optional<double> min_busbw;       // GB/s gate on every plateau busbw
  PairsMode pairs = PairsMode::kOff;
  std::string node_key = "host";         // pairs: what a "node" is: host (hostname) or rank
  bool print_table = false;              // nccl-tests-like table on stderr (root only)
};

/// "8", "64K", "1M", "1G" (binary multiples, as nccl-tests); throws InputError.
std::size_t parse_bytes(const std::string& s);
/// "7,1237,16777219"; throws InputError.
std::vector<std::size_t> parse_size_list(const std::string& s);

/// Parses the probe's own arguments (see docs/collectives.md). Unknown options are an InputError.
Options parse_options(const std::vector<std::string>& args, const std::string& level);

/// The sweep: min, min*factor, ... <= max.
std::vector<std::size_t> sweep_sizes(const Options& o);

}  // namespace gpucheck::collectives
