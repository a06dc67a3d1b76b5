#pragma once
// What one rank found: per case its wrong-element count (with the first bad index) and its own time per
// iteration. Serialised to JSON so rank 0 can gather every process's reports and merge them.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "collectives/transport.h"

namespace gpucheck::collectives {

struct CaseOutcome {
  std::string key;
  std::size_t checked = 0;        // elements verified on this rank (all check iterations)
  std::size_t wrong = 0;
  std::int64_t first_index = -1;  // first wrong element of the output buffer, -1 when none
  std::uint32_t expected_bits = 0, got_bits = 0;
  double time_s = -1;             // seconds per iteration on this rank; < 0: not timed
};

/// The same-run device-to-device copy one rank measured as its baseline (one rank: no bus to report).
struct CopyBaseline {
  std::size_t bytes = 0;  // copied once per iteration (as device.copy counts D2D)
  double time_s = -1;     // seconds per iteration; < 0: not measured
  std::string error;      // why not, when not
};

struct RankReport {
  RankInfo info;
  std::vector<CaseOutcome> cases;
  std::optional<CopyBaseline> copy;  // only where a baseline was asked for (one rank)
  std::string error;       // what stopped this rank (timeout, NCCL error); empty when it finished
  bool timed_out = false;
};

nlohmann::json to_json(const RankReport& r);
/// Throws std::invalid_argument / nlohmann::json::exception on malformed input.
RankReport rank_report_from_json(const nlohmann::json& j);

}  // namespace gpucheck::collectives
