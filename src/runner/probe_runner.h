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

/// The last phase a probe reported (probe::phase()), read from the file the runner gave it.
struct ProbePhase {
  std::string what;                 // "cudaMalloc 64 GiB on GPU 3"
  double seconds_in = 0;            // from the phase's start to the probe's end (or kill)
  std::vector<int> gpus, ranks;     // reached so far, over all phases
  unsigned long long seq = 0;       // how many phases it went through
};

Finding run_probe(const ProbeSpec& spec, const RunOptions& options);

/// The classification rules, separate from spawning so they are testable on their own.
/// A timeout gets a fix: the command that reruns the probe alone with twice the time (at `level` when given).
/// `phase`: the probe's last phase; a timeout names it ("timeout in phase 'X' after Y s"), with the GPUs and
/// ranks reached, in summary, evidence and metrics, so every format shows it; a crash keeps it as evidence.
Finding classify_probe_outcome(const ProbeSpec& spec, const SubprocessResult& outcome, double timeout_s,
                               const std::string& level = "", const std::optional<ProbePhase>& phase = std::nullopt);

/// Parses the phase file's text (probe::phase()); nullopt when it is empty or not a phase document.
std::optional<ProbePhase> parse_phase(const std::string& text);

}  // namespace gpucheck::runner
