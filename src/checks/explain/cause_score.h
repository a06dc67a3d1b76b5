#pragma once
// Whether a signature that matched something names its cause, and how sure it is. Decisive patterns name
// it alone; weak signals only when their weights add up to the signature's threshold; context
// discriminators (`when`/`unless` on the log's facts) must agree; and a cause below its minimum
// confidence is not named, because unknown beats a wrong cause. docs/explain.md gives the formulas.
#include <map>
#include <string>
#include <vector>

#include "checks/explain/log_scanner.h"
#include "checks/explain/signature.h"

namespace gpucheck::explain {

struct CauseScore {
  bool named = false;
  double confidence = 0.0;
  double signal_weight = 0.0;        // sum of the weights of the distinct signals matched
  std::vector<std::string> signals;  // their names, in signature order
  std::vector<std::string> held;     // the `when` conditions that held (the discriminators used)
  std::string why_not;               // when not named: the reason, for the report
};

/// `facts`: the cause's captures and the context values near it.
CauseScore score_cause(const Signature& sig, const SignatureHits& hits, const std::map<std::string, std::string>& facts);

}  // namespace gpucheck::explain
