#pragma once
// THE peer rule: a value is a low outlier among its peers (GPUs of one product on a node, all the GPUs a
// stress run loaded at once) when it is below (1 - min_relative) x their median AND its robust z-score
// 0.6745 (median - value) / MAD is above outlier_z (Iglewicz and Hoaglin's modified z; with MAD 0 the first
// condition alone), judged only with at least min_peers values (a median of two is no norm).
// The thresholds (checks/acceptance/thresholds.h) and stress.gemm both judge with it.
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
  double floor = 0;        // (1 - min_relative) x median
  std::vector<double> z;   // per value; 0 where MAD is 0
  std::vector<bool> low;   // per value: the rule fired
};

PeerJudgement judge_peers(const std::vector<double>& values, const PeerRule& rule);

/// Median (0 for none) and median absolute deviation around `median`.
double median_of(std::vector<double> v);
double mad_of(const std::vector<double>& v, double median);

}  // namespace gpucheck
