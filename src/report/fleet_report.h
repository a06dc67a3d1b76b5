#pragma once
// `gpucheck fleet merge`: the run reports of many nodes judged together. Each node gets one verdict:
// accept, reject (failed probes, a metric far below its peers with the same GPUs, software that differs
// from the rest of the fleet) or incomplete (no usable report, an interrupted run, a probe without a
// verdict). Only facts from the reports are used; the drain command is printed, never run.
#include <optional>
#include <string>
#include <vector>

#include "core/peer_outlier.h"

#include "model/report.h"

namespace gpucheck::report {

struct FleetOptions {
  /// A metric is an outlier by THE peer rule (core/peer_outlier.h) among the nodes of one GPU model: on
  /// the bad side of their median by more than `min_relative` of it AND robust z beyond `outlier_z`. The
  /// relative floor keeps a tight fleet from rejecting a node for noise: 2% slower than peers that agree to
  /// 0.1% is not a reason to drain it.
  PeerRule peer;
  /// Nodes that must have a report (Slurm node names or host names); one without any is incomplete.
  std::vector<std::string> expect;
};

/// One file given to `fleet merge`, as commands::fleet_merge read it: a node's report, the JSON of one
/// multi-node probe (collectives-<job>.json from scripts/slurm/accept.sbatch: the collectives probe's own
/// JSON, one device per rank with its host), or neither with the reason it could not be read.
struct FleetFile {
  std::string path;
  std::optional<model::Report> report;
  std::optional<Finding> probe;
  std::string problem;
};

/// `files` read from `inputs` (the files and directories the user named, quoted for an expected node
/// without a report). Unreadable files become incomplete nodes named by their file; several reports of one
/// host: the newest counts. A multi-node probe result rejects the hosts of its failed ranks.
model::Report fleet_report(model::Report base, const std::vector<std::string>& inputs, std::vector<FleetFile> files,
                    const FleetOptions& o);

}  // namespace gpucheck::report
