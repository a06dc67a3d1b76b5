#pragma once
// Two whole processes measured side by side: spawned from argument vectors (stdout/stderr on /dev/null),
// alternated pair by pair so a change in machine load hits both alike, each timed by wall clock and by
// CPU time (user + system of the process and the children it waited for, from wait4: on a shared,
// loaded machine the steadier figure) and peak RSS (wait4's ru_maxrss).
#include <map>
#include <string>
#include <vector>

namespace gpucheck::bench {

struct ProcessRun {
  double wall_ms = 0;
  double cpu_ms = 0;
  double peak_mib = 0;
  int exit_code = -1;  // -1: killed by a signal or not started
};

struct Command {
  std::vector<std::string> argv;
  std::map<std::string, std::string> set_env;  // added to (or replacing in) this process's environment
  std::string fresh_dir_env;                    // when set: this variable names a new empty directory per run
};

/// Runs `c` once; `timeout_s` kills it (SIGKILL) past that.
ProcessRun run_process(const Command& c, double timeout_s = 600);

struct PairStats {
  std::vector<ProcessRun> subject, peer;  // pairs[i] = (subject[i], peer[i])
  double median(bool subject_side, double ProcessRun::*field) const;
  /// Median of subject/peer per pair (wall or CPU), and the smallest and largest pair ratio.
  double pair_ratio_median(double ProcessRun::*field) const;
  double pair_ratio_min(double ProcessRun::*field) const;
  double pair_ratio_max(double ProcessRun::*field) const;
};

/// One untimed run of each (hot caches), then `pairs` alternated pairs. The first side of each pair
/// alternates too (subject first in even pairs), so neither always runs right after the other.
PairStats run_pairs(const Command& subject, const Command& peer, int pairs, double timeout_s = 600);

double median(std::vector<double> v);

}  // namespace gpucheck::bench
