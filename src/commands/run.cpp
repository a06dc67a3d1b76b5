#include "commands/run.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <thread>

#include "commands/run_history.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/interrupt.h"
#include "core/paths.h"
#include "core/rule_switch.h"
#include "core/subprocess.h"
#include "core/text.h"
#include "inventory/collect.h"
#include "model/run_details.h"
#include "model/scrub.h"
#include "commands/run_thresholds.h"
#include "runner/kernel_log_source.h"

namespace gpucheck::commands {

namespace {

runner::KernelLogOptions kernel_log_options(const std::string& arg) {
  runner::KernelLogOptions o;
  if (arg == "auto" || arg == "kmsg" || arg == "journal" || arg == "none") {
    o.mode = arg;
    return o;
  }
  if (arg.empty()) throw InputError("--kernel-log is empty (auto, kmsg, journal, none or a saved log file)");
  if (access(arg.c_str(), R_OK) != 0) throw InputError("--kernel-log " + arg + ": not a readable file");
  o.mode = "file";
  o.file = arg;
  return o;
}

// A judgement that could not run (its installed data unreadable): an error, so the run has no verdict.
Finding unavailable(const std::string& id, const std::string& title, const std::exception& e) {
  Finding f;
  f.id = id;
  f.status = Status::kError;
  f.title = title;
  f.summary = e.what();
  return f;
}

}  // namespace

RunResult run(const RunRequest& a, model::Report rep, const RunHooks& hooks) {
  // The selftest's hook removes acceptance rules: a run under it would pass broken nodes.
  if (const char* d = std::getenv(kDisableRuleEnv); d && *d)
    throw InputError(std::string(kDisableRuleEnv) + "=" + d + " is set: it removes acceptance rules (a gpucheck "
                     "selftest hook); unset it before gpucheck run");
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
  auto thresholds = commands::prepare_run_thresholds(a.thresholds, a.baseline);
  auto kernel_log = kernel_log_options(a.kernel_log);
  // Likewise an unwritable --report-dir (read-only, not ours): found out before a long run, not after it.
  if (!a.no_report) check_writable_dir(a.report_dir);

  rep.meta.level = a.level;
  rep.meta.exit.strict = a.strict;

  runner::RunOptions opts;
  opts.level = a.level;
  if (!a.python.empty()) {
    if (access(a.python.c_str(), X_OK) != 0) throw InputError("--python " + a.python + ": not an executable file");
    opts.env["GPUCHECK_PYTHON"] = a.python;  // the Python probes' own default order reads it
  }
  if (a.timeout > 0) opts.timeout_s = a.timeout;

  std::vector<double> budgets;  // what the ETA is made of: each probe's timeout here
  for (const auto& p : probes)
    budgets.push_back(a.timeout > 0 ? a.timeout : runner::effective_timeout(p, a.level, std::thread::hardware_concurrency()));
  std::vector<double> recorded;  // and what each took here last time, when a report of it is at hand
  if (hooks.selected) {
    const auto took = a.report_dir.empty() ? std::map<std::string, double>{}
                                           : recorded_durations(a.report_dir, rep.meta.hostname, a.level);
    for (const auto& p : probes) recorded.push_back(took.count(p.id) ? took.at(p.id) : 0.0);
    hooks.selected(probes, budgets, recorded);
  }
  // Which selected probes need a GPU: a run where all of them skipped says so instead of PASS.
  model::RunDetails details;
  for (const auto& p : probes)
    if (std::find(p.tags.begin(), p.tags.end(), "gpu") != p.tags.end()) details.gpu_probes.push_back(p.id);
  rep.details = model::to_json(details);
  catch_interrupts();  // Ctrl-C, SIGTERM, SIGHUP: stop the probe, keep what finished, write the report
  std::vector<acceptance::ProbeWindow> windows;
  rep.section("probes").findings = runner::run_suite(probes, opts, hooks.suite, &windows);
  if (hooks.suite_done) hooks.suite_done();
  // The NVIDIA driver's lines logged while each probe ran, attached to it (docs/acceptance.md).
  try {
    auto between = runner::add_kernel_evidence(rep.section("probes").findings, windows, kernel_log,
                                               data_path("kernel/xid.json"));
    rep.section("kernel_log").findings.push_back(std::move(between));
  } catch (const std::exception& e) {  // the installed Xid table unreadable: keep the probes' results, no verdict
    rep.section("kernel_log").findings.push_back(unavailable("kernel.log", "the kernel-log evidence could not be read", e));
  }
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
    auto judged = commands::judge_run_thresholds(rep.section("probes").findings, thresholds);
    if (hooks.judged)
      for (const auto& f : judged) hooks.judged(f);  // shown like the probes: the run's verdict rests on them
    if (!judged.empty()) rep.section("thresholds").findings = std::move(judged);
  } catch (const std::exception& e) {  // unreadable installed data: keep the probes' results, no verdict
    rep.section("thresholds").findings.push_back(unavailable("thresholds.unavailable", "the threshold rules could not run", e));
  }
  if (!a.no_inventory && interrupt_signal() == 0) {
    inventory::CollectOptions co;
    co.python = a.level != "quick";
    if (!a.python.empty()) co.pythons = {a.python};
    rep.inventory = inventory::collect(co);
  }
  rep.meta.finished_at = utc_now_iso();

  model::scrub_secrets(rep);  // before the report file: probe output and evidence come from outside
  RunResult out;
  if (!a.no_report)
    out.written = model::write_report_file(a.report_dir, rep.meta.hostname, utc_now_compact(),
                                            json_text(model::to_json(rep), 2) + "\n");
  out.report = std::move(rep);
  return out;
}

}  // namespace gpucheck::commands
