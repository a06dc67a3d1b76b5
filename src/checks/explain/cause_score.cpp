#include "checks/explain/cause_score.h"

#include <algorithm>
#include <fmt/format.h>

namespace gpucheck::explain {

CauseScore score_cause(const Signature& sig, const SignatureHits& hits, const std::map<std::string, std::string>& facts) {
  CauseScore s;
  double strong_max = 0.0, signals_miss = 1.0;
  int strong = 0;
  for (std::size_t i = 0; i < sig.patterns.size(); ++i) {
    if (i >= hits.patterns_matched.size() || !hits.patterns_matched[i]) continue;
    const Pattern& p = sig.patterns[i];
    if (p.signal) {
      s.signal_weight += p.weight;
      s.signals.push_back(p.name);
      signals_miss *= 1.0 - p.confidence;
    } else {
      ++strong;
      strong_max = std::max(strong_max, p.confidence);
    }
  }
  // Decisive patterns as before: the best one, +0.03 for each other distinct pattern that agrees; the
  // signals matched combine with it as independent evidence (noisy-or).
  const double strong_conf = strong > 0 ? std::min(0.99, strong_max + 0.03 * (strong - 1)) : 0.0;
  s.confidence = std::min(0.99, 1.0 - (1.0 - strong_conf) * signals_miss);
  if (strong == 0 && s.signal_weight + 1e-9 < sig.threshold) {
    s.why_not = fmt::format("signals add up to {:.2f} of the {:.2f} needed", s.signal_weight, sig.threshold);
    return s;
  }
  for (const auto& c : sig.when) {
    if (!holds(c, facts)) {
      auto it = facts.find(c.fact);
      s.why_not = "needs " + c.text + (it == facts.end() ? " (not in the log)" : " (the log says " + it->second + ")");
      return s;
    }
    s.held.push_back(c.text);
  }
  for (const auto& c : sig.unless)
    if (holds(c, facts)) {
      s.why_not = "not when " + c.text;
      return s;
    }
  if (s.confidence + 1e-9 < sig.min_confidence) {
    s.why_not = fmt::format("confidence {:.2f} below {:.2f}", s.confidence, sig.min_confidence);
    return s;
  }
  s.named = true;
  return s;
}

}  // namespace gpucheck::explain
