#pragma once
// Helpers shared by the explain tests: the signatures from the source tree and a quick explain call.
#include <set>
#include <string>
#include <vector>

#include "checks/explain/explainer.h"
#include "checks/explain/fix_facts.h"
#include "checks/explain/signature.h"

namespace gpucheck::explain::testing {

inline const std::vector<Signature>& source_signatures() {
  static const auto sigs = load_signatures(std::string(GPUCHECK_SOURCE_DIR) + "/data/signatures");
  return sigs;
}

inline Explanation explain_string(const std::string& log, ScanOptions options = {},
                                  const inventory::Inventory* inv = nullptr) {
  return explain_text(log, source_signatures(), make_fact_call(inv, {}), options);
}

inline std::set<std::string> cause_ids(const Explanation& e) {
  std::set<std::string> ids;
  for (const auto& c : e.causes) ids.insert(c.id);
  return ids;
}

inline const Cause* find_cause(const Explanation& e, const std::string& id) {
  for (const auto& c : e.causes)
    if (c.id == id) return &c;
  return nullptr;
}

}  // namespace gpucheck::explain::testing
