#include "runner/suite.h"

#include "core/interrupt.h"
#include "runner/containment.h"
#include "runner/kernel_log_source.h"

namespace gpucheck::runner {

std::vector<Finding> run_suite(const std::vector<ProbeSpec>& probes, const RunOptions& options,
                              const SuiteObserver& observer, std::vector<acceptance::ProbeWindow>* windows) {
  std::vector<Finding> results;
  results.reserve(probes.size());
  become_subreaper();  // a probe's setsid() descendants become ours, so end_orphans() can end them
  for (std::size_t i = 0; i < probes.size(); ++i) {
    if (interrupt_signal() != 0) break;  // asked to stop: what finished is the report
    if (observer.on_start) observer.on_start(i, probes.size(), probes[i]);
    acceptance::ProbeWindow w;
    w.monotonic_start = monotonic_now();
    w.epoch_start = epoch_now();
    results.push_back(run_probe(probes[i], options));
    w.monotonic_end = monotonic_now();
    w.epoch_end = epoch_now();
    if (windows) windows->push_back(w);
    if (int n = end_orphans(); n > 0)
      results.back().evidence["orphans_killed"] =
          std::to_string(n) + " process(es) the probe left running (detached with setsid), killed";
    if (observer.on_finish) observer.on_finish(i, probes.size(), probes[i], results.back());
  }
  return results;
}

}  // namespace gpucheck::runner
