#pragma once
// Runs one probe executable in isolation and turns whatever happened into a Finding: the probe's own
// result when it delivered one, otherwise `error` naming the failure (exit code, signal, timeout,
// unparsable output) with the tail of its stderr. Nothing a probe does can take the suite down.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/finding.h"
#include "core/subprocess.h"
#include "runner/catalog.h"

namespace gpucheck::runner {

inline constexpr int kResultFd = 3;  // the fd number the probe sees its result pipe as

struct RunOptions {
  std::string level = "standard";
  std::optional<double> timeout_s;  // overrides each probe's manifest timeout (else effective_timeout)
  double kill_grace_s = 2.0;        // SIGTERM, then SIGKILL after this
  std::vector<std::string> extra_args;
  std::map<std::string, std::string> env;  // set for every probe (GPUCHECK_PYTHON from run --python)
};

Finding run_probe(const ProbeSpec& spec, const RunOptions& options);

/// The classification rules, separate from spawning so they are testable on their own.
/// A timeout gets a fix: the command that reruns the probe alone with twice the time (at `level` when given).
Finding classify_probe_outcome(const ProbeSpec& spec, const SubprocessResult& outcome, double timeout_s,
                               const std::string& level = "");

}  // namespace gpucheck::runner
