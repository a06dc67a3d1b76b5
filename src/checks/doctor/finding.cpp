#include "checks/doctor/finding.h"

namespace gpucheck::compat {

const char* to_string(Severity s) {
  switch (s) {
    case Severity::kInfo: return "info";
    case Severity::kWarn: return "warn";
    case Severity::kError: return "error";
  }
  return "info";
}

void to_json(nlohmann::json& j, const Evidence& e) {
  j = {{"what", e.what}, {"value", e.value}, {"source", e.source}};
}

void to_json(nlohmann::json& j, const FixStep& f) {
  j = {{"rank", f.rank}, {"summary", f.summary}, {"commands", f.commands}, {"cost", f.cost}};
}

void to_json(nlohmann::json& j, const Finding& f) {
  j = {{"id", f.id},
       {"severity", to_string(f.severity)},
       {"title", f.title},
       {"evidence", f.evidence},
       {"explanation", f.explanation},
       {"fixes", f.fixes},
       {"references", f.references}};
}

}  // namespace gpucheck::compat
