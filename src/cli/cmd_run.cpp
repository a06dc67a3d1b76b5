#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "cli/command.h"
#include "cli/progress.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/interrupt.h"
#include "core/paths.h"
#include "core/subprocess.h"
#include "core/text.h"
#include "inventory/collect.h"
#include "report/report.h"
#include "report/run_thresholds.h"
#include "runner/catalog.h"
#include "runner/suite.h"


namespace gpucheck::cli {
namespace {

struct RunArgs {
  std::string level = "standard";
  std::vector<std::string> only, skip;
  bool strict = false;
  double timeout = 0;
  std::string report_dir = "reports";
  bool no_report = false;
  bool no_inventory = false;
  std::string python;  // --python: the interpreter the Python probes and the inventory judge
  std::string thresholds;  // --thresholds: a config file overriding the threshold defaults
  std::string baseline;    // --baseline: an earlier run report, for the own-history rule
};

int run_command(const RunArgs& a, const GlobalOptions& g) {
  if (!a.no_report && a.report_dir.empty())
    throw InputError("--report-dir is empty (give a directory, or --no-report)");
  auto catalog = runner::load_catalog(data_path("probes"), probe_dir());
  std::vector<std::string> only, skip;
  for (const auto& arg : a.only)
    for (const auto& id : split(arg, ',')) only.push_back(trim(id));
  for (const auto& arg : a.skip)
    for (const auto& id : split(arg, ',')) skip.push_back(trim(id));
  auto probes = runner::select_probes(catalog, a.level, only, skip);
  if (probes.empty()) throw InputError("no probe selected for level '" + a.level + "'" + (skip.empty() ? "" : " after --skip"));

  // Read before any probe runs: a bad config or baseline stops here (exit 2), not after the probes.
  auto thresholds = report::prepare_run_thresholds(a.thresholds, a.baseline);
  // Likewise an unwritable --report-dir (read-only, not ours): found out before a long run, not after it.
  if (!a.no_report) check_writable_dir(a.report_dir);

  report::Report rep = new_report("run", g);
  rep.meta.level = a.level;
  rep.meta.exit.strict = a.strict;

  runner::RunOptions opts;
  opts.level = a.level;
  if (!a.python.empty()) {
    if (access(a.python.c_str(), X_OK) != 0) throw InputError("--python " + a.python + ": not an executable file");
    opts.env["GPUCHECK_PYTHON"] = a.python;  // the Python probes' own default order reads it
  }
  if (a.timeout > 0) opts.timeout_s = a.timeout;

  bool human = !g.json;
  std::vector<double> budgets;  // what the ETA is made of: each probe's timeout here
  for (const auto& p : probes)
    budgets.push_back(a.timeout > 0 ? a.timeout : runner::effective_timeout(p, a.level, std::thread::hardware_concurrency()));
  Progress progress(isatty(2) && human, use_color(g, 2), g.quiet || !human, g.verbose, budgets);
  runner::SuiteObserver obs;
  obs.on_start = [&](std::size_t i, std::size_t n, const runner::ProbeSpec& p) { progress.start(i, n, p.id); };
  obs.on_finish = [&](std::size_t, std::size_t, const runner::ProbeSpec&, const Finding& r) { progress.finish(r); };
  // Which selected probes need a GPU: a run where all of them skipped says so instead of PASS.
  rep.details["gpu_probes"] = nlohmann::json::array();
  for (const auto& p : probes)
    if (std::find(p.tags.begin(), p.tags.end(), "gpu") != p.tags.end()) rep.details["gpu_probes"].push_back(p.id);
  catch_interrupts();  // Ctrl-C, SIGTERM, SIGHUP: stop the probe, keep what finished, write the report
  rep.section("probes").findings = runner::run_suite(probes, opts, obs);
  progress.finish_suite();
  if (int sig = interrupt_signal()) {
    const auto& done = rep.section("probes").findings;
    std::vector<std::string> not_run;
    for (std::size_t i = done.size(); i < probes.size(); ++i) not_run.push_back(probes[i].id);
    // An incomplete run has no verdict (exit 3, or 1 when a probe already failed), never a pass.
    Finding stopped;
    stopped.id = "run.incomplete";
    stopped.status = Status::kError;
    stopped.title = "the run was stopped";
    stopped.summary = "gpucheck received " + signal_name(sig) + " after " + std::to_string(done.size()) + " of " +
                      std::to_string(probes.size()) + " probes";
    if (!not_run.empty()) {
      stopped.evidence["not run"] = join(not_run, ", ");
      stopped.add_fix("run the rest", {"gpucheck run --only " + join(not_run, ",")});
    }
    rep.section("run").findings.push_back(stopped);
    rep.notes.push_back("incomplete: " + stopped.summary);
  }
  // The GPU probes' metrics against the datasheet, the node's peers and the baseline (docs/acceptance.md).
  try {
    auto judged = report::judge_run_thresholds(rep.section("probes").findings, thresholds);
    for (const auto& f : judged) progress.finish(f);  // shown like the probes: the run's verdict rests on them
    if (!judged.empty()) rep.section("thresholds").findings = std::move(judged);
  } catch (const std::exception& e) {  // unreadable installed data: keep the probes' results, no verdict
    Finding broken;
    broken.id = "thresholds.unavailable";
    broken.status = Status::kError;
    broken.title = "the threshold rules could not run";
    broken.summary = e.what();
    rep.section("thresholds").findings.push_back(broken);
  }
  if (!a.no_inventory && interrupt_signal() == 0) {
    inventory::CollectOptions co;
    co.python = a.level != "quick";
    if (!a.python.empty()) co.pythons = {a.python};
    rep.inventory = inventory::collect(co);
  }
  rep.meta.finished_at = utc_now_iso();

  std::string written;
  if (!a.no_report) {
    written = report::write_report_file(a.report_dir, rep.meta.hostname, utc_now_compact(),
                                        json_text(report::to_json(rep), 2) + "\n");
  }
  // On stdout the probes were already shown one by one (on stderr) as they finished: end with the verdict.
  render::RenderOptions o = render_options(g, 1);
  o.summary_only = true;
  o.report_path = written;
  return emit_report(rep, g, &o);
}

Runner setup_run(CLI::App& sub, GlobalOptions& g) {
  auto a = std::make_shared<RunArgs>();
  sub.add_option("--level", a->level, "quick (<=30 s), standard (<=3 min) or long (<=15 min) on one 8-GPU node")
      ->check(CLI::IsMember({"quick", "standard", "long"}));
  sub.add_option("--only", a->only, "Run exactly these probe ids (comma-separated), whatever their level")
      ->allow_extra_args(false)  // one argument each, split at the commas below: `--only , --x` keeps --x a flag
      ->type_name("ID,...");
  sub.add_option("--skip", a->skip, "Leave out these probe ids (comma-separated) from what --level or --only selects")
      ->allow_extra_args(false)
      ->type_name("ID,...");
  sub.add_flag("--strict", a->strict, "A skipped probe counts as a failure (acceptance of a node that must have GPUs)");
  sub.add_option("--timeout", a->timeout, "Per-probe timeout in seconds (overrides each probe's own)")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            char* end = nullptr;
            double v = std::strtod(text.c_str(), &end);
            // At least a millisecond: 1e-320 was accepted, and a timeout shorter than the clock's step is none.
            if (end == text.c_str() || *end != '\0' || !(v >= 0.001) || v > runner::kMaxTimeoutSeconds)
              return "must be a number of seconds, at least 0.001 and at most 604800 (a week)";
            return "";
          },
          "SECONDS"));
  sub.add_option("--report-dir", a->report_dir, "Directory for the JSON report (default: reports)")
      ->type_name("DIR");
  sub.add_flag("--no-report", a->no_report, "Do not write a report file");
  sub.add_option("--python", a->python,
                 "The interpreter the Python probes (bmtrain.installed, abi.extensions) and the inventory judge "
                 "(default: $GPUCHECK_PYTHON, else python3 on PATH)")
      ->type_name("PATH");
  sub.add_flag("--no-inventory", a->no_inventory, "Do not embed the environment inventory in the report");
  sub.add_option("--thresholds", a->thresholds,
                 "GPU threshold overrides, JSON (docs/acceptance.md)")
      ->type_name("FILE");
  sub.add_option("--baseline", a->baseline,
                 "Earlier run report: each GPU against its own history")
      ->type_name("REPORT");
  sub.footer(R"(Each probe runs as its own process with a timeout; a crash, hang or garbage output is
reported as `error` and the suite goes on. The report goes to reports/<host>-<UTC time>.json
(never overwriting a file) unless --no-report.
The GPU probes' metrics are then judged in section `thresholds`: against the
product's datasheet (share), the node's GPUs of the same product (median/MAD)
and, with --baseline, each GPU's own earlier values (docs/acceptance.md).

Examples:
  gpucheck run --level quick
  gpucheck run --only device.runtime,host.info --json
  gpucheck run --skip collectives.nccl
  gpucheck run --level long --strict --report-dir /var/log/gpucheck
  gpucheck run --thresholds site.json --baseline reports/node7-old.json)");
  return [a, &g] { return run_command(*a, g); };
}

Registration reg({"run", "Run the probe suite and write a report", 10, &setup_run});

}  // namespace
}  // namespace gpucheck::cli
