#pragma once
// What `explain` concludes about one log: each cause found is a core Finding (status info, the matched lines
// as evidence, explanation and ranked fixes; its confidence, root flag, captures and line numbers in
// details), or one "unknown" Finding (status fail) when nothing matched; plus facts about the input itself.
#include <cstdint>
#include <string>
#include <vector>

#include "core/finding.h"

namespace gpucheck::explain {

struct InputSummary {
  std::string name;                  // path or "-"
  std::uint64_t bytes = 0;
  std::uint64_t lines = 0;
  std::uint64_t long_lines = 0;      // lines longer than a segment (read as overlapping segments)
  std::uint64_t invalid_utf8_bytes = 0;
  std::uint64_t control_bytes = 0;
  bool binary = false;               // mostly non-text bytes
};

/// The id of the Finding an unexplained log gets.
inline constexpr const char* kUnknownCause = "unknown";

struct Explanation {
  InputSummary input;
  /// Identified causes, ordered by first evidence line; empty: cause unknown. Each Finding: id = cause id,
  /// status info, evidence [{what "line N", value text, source input name}], details {confidence, root,
  /// captures, first_line, lines: [N, ...] (parallel to evidence)}.
  std::vector<Finding> causes;
  /// The verdict when `causes` is empty: id "unknown", status fail, the last error-looking lines as
  /// evidence (details as for a cause, lines included).
  Finding unknown;
  std::vector<std::string> notes;    // about the input or the environment used
  bool identified() const { return !causes.empty(); }
  /// What a report shows: the causes, or the one "unknown" Finding.
  std::vector<Finding> findings() const { return identified() ? causes : std::vector<Finding>{unknown}; }
};

}  // namespace gpucheck::explain
