#pragma once
// The fixture corpus under tests/data/logs: NAME.log (a real log) + NAME.json ({source, expected, root?,
// set?}) and the accuracy table computed from it (docs/explain.md embeds that table).
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace gpucheck::explain::testing {

struct Fixture {
  std::string name;                 // file stem
  std::string log_path;
  std::string source;               // issue URL, or how it was produced on this machine
  std::string origin;
  std::string set = "tuning";       // "tuning": seen while writing signatures; "heldout": collected after
  std::set<std::string> expected;   // cause ids; empty = the log has no known cause ("unknown")
  std::string root;                 // expected root cause, when stated
};

/// gtest prints a parameter with this: the fixture name instead of its bytes.
inline void PrintTo(const Fixture& f, std::ostream* os) { *os << f.name; }

struct Outcome {
  Fixture fixture;
  std::set<std::string> found;
  std::string found_root;
};

std::vector<Fixture> load_fixtures(const std::string& dir);

/// Markdown: per cause id, fixtures expecting it, true/false positives, misses, precision and recall,
/// one table per fixture set.
std::string accuracy_markdown(const std::vector<Outcome>& outcomes);

}  // namespace gpucheck::explain::testing
