#pragma once
// Reading gpucheck's JSON documents in tests: evidence is an ordered array of {what, value, source}.
#include <string>

#include <nlohmann/json.hpp>

namespace gpucheck::testing {

/// The value of the evidence entry `what` of a finding (or device) document; "" when there is none.
inline std::string evidence_of(const nlohmann::json& finding, const std::string& what) {
  if (!finding.is_object() || !finding.contains("evidence")) return "";
  for (const auto& e : finding["evidence"])
    if (e.value("what", "") == what) return e.value("value", "");
  return "";
}

}  // namespace gpucheck::testing
