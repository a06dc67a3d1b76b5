#pragma once
// Log signatures, loaded from data/signatures/*.json: a stable cause id, patterns (literal prefilter +
// regex with named captures), the explanation and fix templates. The format is documented in
// docs/explain.md; every signature cites where its message comes from.
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "checks/explain/condition.h"
#include "checks/explain/named_regex.h"

namespace gpucheck::explain {

struct Pattern {
  std::vector<std::string> literals;  // the line must contain one of these (case-insensitive)
  NamedRegex regex;
  int window = 1;                     // lines joined (with a space) for a message hard-wrapped over lines
  bool anchored = false;              // match only at the start of the (normalised) line: much cheaper
  double confidence = 0.9;
  // A weak signal ("signals" in the JSON) names the cause only together with others: the weights of the
  // distinct signals matched add up, and the cause is named from signals when they reach the threshold.
  bool signal = false;
  double weight = 0.0;
  std::string name;                         // a signal's name, shown in details.signals
  std::map<std::string, std::string> sets;  // constant captures when it matches ("pip_phase": "metadata")
};

/// Below this confidence a cause is not named (unknown beats a wrong cause); a signature may raise it.
inline constexpr double kDefaultMinConfidence = 0.5;

/// One fix step: the first alternative whose placeholders all resolve is used; none resolving drops it.
struct FixStep {
  std::vector<std::string> alternatives;
};

struct Signature {
  std::string id;
  std::string kind = "cause";         // "cause" or "context" (captures values for other causes' fixes)
  std::vector<std::string> title;        // one-line verdict: first alternative that fully renders
  std::vector<std::string> explanation;  // same
  std::vector<Pattern> patterns;
  std::vector<FixStep> fix;
  std::vector<std::string> consequence_of;  // if one of these causes is also present, this one is not root
  std::vector<std::string> overridden_by;   // dropped when one of these matched every line this one did
  double threshold = 1.0;                   // sum of signal weights that names the cause
  double min_confidence = kDefaultMinConfidence;
  std::vector<Condition> when;              // all must hold for the cause to be named
  std::vector<Condition> unless;            // none may hold
  struct Reclassify {
    std::string condition;  // a fact call, e.g. "env_driver_absent()": true when it resolves ("" = none)
    std::vector<Condition> when;  // or/and conditions on the log's facts, all holding
    std::string id;         // the cause id to report instead
  };
  std::vector<Reclassify> reclassify;       // the environment can tell which of two look-alike causes it is
  std::vector<std::string> sources;
  std::string file;                   // which JSON file it came from
};

/// Loads every *.json in `dir` (sorted by name). Throws InputError naming the file and signature on a
/// malformed file, an invalid regex, a pattern without literals, or a duplicate id.
std::vector<Signature> load_signatures(const std::string& dir);

/// Parses one signatures document (for tests); `origin` names it in errors.
std::vector<Signature> parse_signatures(const nlohmann::json& doc, const std::string& origin);

}  // namespace gpucheck::explain
