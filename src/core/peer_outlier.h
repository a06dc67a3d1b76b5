#pragma once
// THE peer rule: a value is an outlier on the bad side of its peers (GPUs of one product on a node, all
// the GPUs a stress run loaded at once, nodes of one GPU model in a fleet) when it is worse than their
// median by more than min_relative of it (for a higher-is-better value: below (1 - min_relative) x median)
// AND its robust z-score 0.6745 |value - median| / MAD is above outlier_z (Iglewicz and Hoaglin's modified
// z; with MAD 0 the first condition alone), judged only with at least min_peers values (a median of two is
// no norm). The thresholds (checks/acceptance/thresholds.h), stress.gemm and fleet merge all judge with it.
#include <cstddef>
#include <vector>

namespace gpucheck {

struct PeerRule {
  double outlier_z = 3.5;      // Iglewicz and Hoaglin's modified z-score cut-off
  double min_relative = 0.05;  // an outlier must also be this much below the median
  std::size_t min_peers = 3;   // fewer values: no peer verdict
};

struct PeerJudgement {
  bool judged = false;  // false: fewer than min_peers values; nothing else is set
  double median = 0, mad = 0;
  double floor = 0;             // the bad-side limit: (1 -/+ min_relative) x median
  std::vector<double> z;        // per value, on the bad side (> 0: worse than the median); 0 where MAD is 0
  std::vector<double> worse_by; // per value: how much worse than the median, as a share of |median|
  std::vector<bool> low;        // per value: the rule fired (named for the usual, higher-is-better case)
};

/// `higher_is_better` false: the bad side is above the median (times, error counts).
PeerJudgement judge_peers(const std::vector<double>& values, const PeerRule& rule, bool higher_is_better = true);

/// Median (0 for none) and median absolute deviation around `median`.
double median_of(std::vector<double> v);
double mad_of(const std::vector<double>& v, double median);

}  // namespace gpucheck
