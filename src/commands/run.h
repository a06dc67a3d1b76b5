#pragma once
// `gpucheck run`: select the probes, run them isolated, judge their metrics against the thresholds, embed the
// inventory and write the report file. The command's I/O lives here; cli/cmd_run.cpp only parses options and
// shows progress through the hooks.
#include <functional>
#include <string>
#include <vector>

#include "model/report.h"
#include "runner/catalog.h"
#include "runner/suite.h"

namespace gpucheck::commands {

struct RunRequest {
  std::string level = "standard";
  std::vector<std::string> only, skip;  // as given: comma-separated ids, one argument each
  bool strict = false;
  double timeout = 0;                   // per-probe seconds; 0: each probe's own
  std::string report_dir = "reports";
  bool no_report = false;
  bool no_inventory = false;
  std::string python;      // the interpreter the Python probes and the inventory judge
  std::string thresholds;  // a config file overriding the threshold defaults
  std::string baseline;    // an earlier run report, for the own-history rule
  std::string kernel_log = "auto";  // auto|kmsg|journal|none or a saved log file
};

/// How the caller watches the run (the CLI's progress lines); every hook may be empty.
struct RunHooks {
  /// The probes chosen, with each one's timeout and what it took in this host's last run at this level
  /// (0 = no record; commands/run_history.h), in run order: what a progress line's ETA is made of.
  std::function<void(const std::vector<runner::ProbeSpec>&, const std::vector<double>& budgets_s,
                     const std::vector<double>& recorded_s)>
      selected;
  runner::SuiteObserver suite;
  std::function<void()> suite_done;
  std::function<void(const Finding&)> judged;  // each thresholds.<probe> finding, shown like a probe
};

struct RunResult {
  model::Report report;
  std::string written;  // the report file; "" with no_report
};

/// Runs the suite into `base` (the report new_report() started). Throws InputError for bad input (exit 2)
/// before any probe runs.
RunResult run(const RunRequest& request, model::Report base, const RunHooks& hooks = {});

}  // namespace gpucheck::commands
