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
  /// A metric is an outlier when its robust z-score (0.6745 (x - median) / MAD) is beyond this on the
  /// bad side (Iglewicz and Hoaglin's 3.5), or, when the MAD is 0, when it is `min_relative` worse.
  double outlier_z = 3.5;
  double min_relative = 0.05;
  std::size_t min_peers = 3;  // fewer nodes of one GPU model: no outlier rule (a median of two is no norm)
};

/// `inputs` are report files or directories of them (*.json, not recursive). Unreadable files become
/// incomplete nodes named by their file; several reports of one host: the newest counts.
Report fleet_report(Report base, const std::vector<std::string>& inputs, const FleetOptions& o);

}  // namespace gpucheck::report
