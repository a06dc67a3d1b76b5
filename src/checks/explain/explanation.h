#pragma once
// What `explain` concludes about one log: the causes found (each with evidence lines, captured values,
// explanation and fix commands) and facts about the input itself.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpucheck::explain {

struct Evidence {
  std::uint64_t line = 0;  // 1-based line number in the input
  std::string text;        // normalised line, shortened to a readable length
};

struct Cause {
  std::string id;
  std::string title;                           // one-line verdict
  double confidence = 0.0;                     // 0..1
  bool root = false;                           // the first failure, which caused the others
  std::vector<Evidence> evidence;
  std::map<std::string, std::string> captures; // from the matched lines (and context lines)
  std::string explanation;
  std::vector<std::string> fix;                // commands or steps, in order
  std::vector<std::string> sources;
  std::uint64_t first_line = 0;
};

struct InputSummary {
  std::string name;                  // path or "-"
  std::uint64_t bytes = 0;
  std::uint64_t lines = 0;
  std::uint64_t long_lines = 0;      // lines longer than a segment (read as overlapping segments)
  std::uint64_t invalid_utf8_bytes = 0;
  std::uint64_t control_bytes = 0;
  bool binary = false;               // mostly non-text bytes
};

struct Explanation {
  InputSummary input;
  std::vector<Cause> causes;         // ordered by first evidence line; empty: cause unknown
  std::vector<Evidence> error_lines; // the last error-looking lines, shown when no cause is known
  std::vector<std::string> notes;    // about the input or the environment used
  bool identified() const { return !causes.empty(); }
};

/// `{causes: [{id, confidence, root, evidence: [{line, text}], captures, explanation, fix}], input, notes}`;
/// an unidentified log has one cause with id "unknown".
nlohmann::json to_json(const Explanation& e);

/// The human report: per cause a verdict line, evidence with line numbers, explanation and fix commands.
std::string render_text(const Explanation& e, bool color);

}  // namespace gpucheck::explain
