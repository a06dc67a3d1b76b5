// `gpucheck fleet merge DIR|FILE...`: the run reports of many nodes judged together (commands/fleet.h).
#include "cli/command.h"
#include "commands/fleet.h"

namespace gpucheck::cli {
namespace {

Runner setup_fleet(CLI::App& sub, GlobalOptions& g) {
  auto inputs = std::make_shared<std::vector<std::string>>();
  auto o = std::make_shared<report::FleetOptions>();
  sub.require_subcommand(1);
  CLI::App* merge = sub.add_subcommand("merge", "Judge the run reports of many nodes together: accept, reject, incomplete");
  merge->fallthrough();
  merge->add_option("REPORTS", *inputs, "Report files, or directories of them (*.json)")
      ->type_name("FILE|DIR")
      ->required();
  merge->add_option("--outlier-z", o->peer.outlier_z,
                    "Robust z-score (0.6745 (x - median) / MAD) beyond which a metric is an outlier (default 3.5)")
      ->check(CLI::Range(0.5, 100.0));
  merge->add_option("--min-relative", o->peer.min_relative,
                    "How much worse than the median an outlier must also be (default 0.05 = 5%); alone when MAD is 0")
      ->check(CLI::Range(0.0, 1.0));
  merge->add_option("--expect", o->expect,
                    "Nodes that must have a report (comma-separated Slurm node or host names); one without is incomplete")
      ->delimiter(',')
      ->type_name("NODE,...");
  merge->add_option("--min-peers", o->peer.min_peers, "Nodes of one GPU model needed before outliers are judged (default 3)")
      ->check(CLI::Range(2, 100000));
  sub.footer(R"(Examples:
  gpucheck fleet merge reports/                      one verdict per node
  gpucheck fleet merge reports/ --json --out fleet.json
  gpucheck fleet merge reports/ --html --out fleet.html  the same as one page to read
  gpucheck fleet merge reports/ --expect n1,n2,n3     a node without a report: incomplete

A node is rejected when a probe failed, when a metric is an outlier among the nodes with the same GPUs
(median and MAD, on the bad side only), when its driver, toolkits, torch or a loaded library differs
from what most nodes have, or when a rank on it failed the multi-node collectives (collectives-*.json);
incomplete when its report is missing (--expect), unreadable, interrupted or has a probe without a
verdict. The scontrol commands that drain rejected nodes are printed, never run.
Exit codes: 0 every node accepted, 1 a node rejected, 3 a node incomplete (and none rejected), 2 bad input.)");
  return [inputs, o, &g] {
    model::Report rep = commands::fleet_merge(*inputs, *o, new_report("fleet", g));
    return emit_report(rep, g);
  };
}

Registration fleet_registration({"fleet", "Accept a batch of nodes from their run reports (fleet merge)", 80, &setup_fleet});

}  // namespace
}  // namespace gpucheck::cli
