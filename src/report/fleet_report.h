#pragma once
// `gpucheck fleet merge`: the run reports of many nodes judged together. Each node gets one verdict:
// accept, reject (failed probes, a metric far below its peers with the same GPUs, software that differs
// from the rest of the fleet) or incomplete (no usable report, an interrupted run, a probe without a
// verdict). Only facts from the reports are used; the drain command is printed, never run.
#include <string>
#include <vector>

#include "report/report.h"

namespace gpucheck::report {

struct FleetOptions {
  /// A metric is an outlier when it is on the bad side of the median of its peers by at least
  /// `min_relative` of the median AND its robust z-score (0.6745 (x - median) / MAD) is beyond this
  /// (Iglewicz and Hoaglin's 3.5; with a MAD of 0 the relative rule alone decides). The relative floor
  /// keeps a tight fleet from rejecting a node for noise: 2% slower than peers that agree to 0.1% is not
  /// a reason to drain it.
  double outlier_z = 3.5;
  double min_relative = 0.05;
  std::size_t min_peers = 3;  // fewer nodes of one GPU model: no outlier rule (a median of two is no norm)
  /// Nodes that must have a report (Slurm node names or host names); one without any is incomplete.
  std::vector<std::string> expect;
};

/// `inputs` are report files or directories of them (*.json, not recursive). Unreadable files become
/// incomplete nodes named by their file; several reports of one host: the newest counts. A file holding a
/// multi-node probe result (collectives-<job>.json from scripts/slurm/accept.sbatch: the collectives probe's
/// own JSON, one device per rank with its host) rejects the hosts of its failed ranks.
Report fleet_report(Report base, const std::vector<std::string>& inputs, const FleetOptions& o);

}  // namespace gpucheck::report
