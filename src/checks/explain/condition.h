#pragma once
// A signature's context discriminator: a test on one fact read from the log (a capture of the cause, or a
// context value near it: pip's phase, the build backend, the package being built, a version). Signatures
// use them in "when" (all must hold), "unless" (none may hold) and "reclassify" (which look-alike it is).
// JSON: {"fact": NAME, OP: ARG} with exactly one OP of
//   "equals": "text"   "in": ["a", "b"]   "matches": "RE2 regex"   "version": ">=2.0,<2.4"   "present": bool
// An absent fact fails every test except "present": false.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "checks/explain/named_regex.h"

namespace gpucheck::explain {

struct Condition {
  enum class Op { kEquals, kIn, kMatches, kVersion, kPresent };
  std::string fact;
  Op op = Op::kEquals;
  std::vector<std::string> values;  // equals: one; in: several; version: the specifiers
  std::optional<NamedRegex> regex;  // matches
  bool present = true;              // present
  std::string text;                 // as written, for the report ("build_backend equals legacy")
};

/// Parses one condition; throws std::invalid_argument naming what is wrong.
Condition parse_condition(const nlohmann::json& j);
std::vector<Condition> parse_conditions(const nlohmann::json& j);  // an array (or one object)

/// True when the condition holds for these facts.
bool holds(const Condition& c, const std::map<std::string, std::string>& facts);

}  // namespace gpucheck::explain
