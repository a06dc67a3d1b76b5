#pragma once
// The probes this installation has: one manifest per probe (share/gpucheck/probes/<id>.json, from
// probes/<dir>/probe.json) naming its title, levels, timeout and per-level arguments.
#include <map>
#include <string>
#include <vector>

namespace gpucheck::runner {

/// The longest timeout a probe may have (a week): beyond it the millisecond clock arithmetic overflows.
inline constexpr double kMaxTimeoutSeconds = 7 * 24 * 3600.0;

struct ProbeSpec {
  std::string id;           // "device.runtime"
  std::string title;
  std::string description;
  std::string executable;   // absolute path in the probe directory
  std::vector<std::string> levels;  // levels that include it: quick, standard, long
  double timeout_s = 60;
  std::map<std::string, double> timeout_by_level;  // "timeout_s_by_level": more work, more time (long)
  int timeout_cores = 0;    // "timeout_cores": the cores the timeouts were sized for; 0 = not core-bound
  std::map<std::string, std::vector<std::string>> level_args;  // extra argv per level
  std::vector<std::string> tags;    // "gpu", "host", "torch", "mpi"
};

extern const std::vector<std::string> kLevels;  // quick, standard, long

/// The timeout a probe gets at `level` on a machine with `cores` online CPUs: the level's own timeout
/// (else timeout_s), times timeout_cores / cores when the probe's work is CPU-bound and this machine has
/// fewer cores than the timeout was sized for (at most 8 times; never more than kMaxTimeoutSeconds).
double effective_timeout(const ProbeSpec& spec, const std::string& level, unsigned cores);

/// Loads every *.json in `manifest_dir`; the executable is `probe_dir/<id>`. Sorted by id.
/// Throws InputError naming the manifest on malformed content.
std::vector<ProbeSpec> load_catalog(const std::string& manifest_dir, const std::string& probe_dir);

/// The probes to run: those of `level`, or exactly `only` when non-empty (any level), less those in
/// `skip`. An unknown id in `only` or `skip` is an InputError with a "did you mean" suggestion.
std::vector<ProbeSpec> select_probes(const std::vector<ProbeSpec>& catalog, const std::string& level,
                                     const std::vector<std::string>& only, const std::vector<std::string>& skip = {});

}  // namespace gpucheck::runner
