#pragma once
// What each probe took in this machine's earlier runs: the durations recorded in the reports `gpucheck run`
// wrote to its report directory (reports/<host>-<UTC time>.json). The ETA of a run is made of them.
#include <map>
#include <string>

namespace gpucheck::commands {

/// Probe id -> seconds it took in the newest reports of `host` at `level` in `dir` (the newest of them that
/// ran it; at most a few reports are read). Empty when there is none; a file that is not a readable report
/// is passed over, never an error.
std::map<std::string, double> recorded_durations(const std::string& dir, const std::string& host,
                                                 const std::string& level);

}  // namespace gpucheck::commands
