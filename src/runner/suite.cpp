#include "runner/suite.h"

namespace gpucheck::runner {

std::vector<Finding> run_suite(const std::vector<ProbeSpec>& probes, const RunOptions& options,
                              const SuiteObserver& observer) {
  std::vector<Finding> results;
  results.reserve(probes.size());
  for (std::size_t i = 0; i < probes.size(); ++i) {
    if (observer.on_start) observer.on_start(i, probes.size(), probes[i]);
    results.push_back(run_probe(probes[i], options));
    if (observer.on_finish) observer.on_finish(i, probes.size(), probes[i], results.back());
  }
  return results;
}

}  // namespace gpucheck::runner
