#include <unistd.h>

#include <cstdlib>
#include <optional>

#include "cli/command.h"
#include "cli/progress.h"
#include "commands/run.h"
#include "model/scrub.h"
#include "runner/catalog.h"


namespace gpucheck::cli {
namespace {

using RunArgs = commands::RunRequest;

// The work is commands::run(); here only what the terminal shows while it runs.
int run_command(const RunArgs& a, const GlobalOptions& g) {
  const bool human = !g.json;
  std::optional<Progress> progress;
  commands::RunHooks hooks;
  hooks.selected = [&](const std::vector<runner::ProbeSpec>&, const std::vector<double>& budgets,
                       const std::vector<double>& recorded) {
    progress.emplace(isatty(2) && human, use_color(g, 2), g.quiet || !human, g.verbose, budgets, recorded);
  };
  hooks.suite.on_start = [&](std::size_t i, std::size_t n, const runner::ProbeSpec& p) { progress->start(i, n, p.id); };
  // Each finding as the report will hold it: redacted (model/scrub.h) before the terminal sees it.
  auto show = [&](Finding f) {
    model::scrub_secrets(f);
    progress->finish(f);
  };
  hooks.suite.on_finish = [&](std::size_t, std::size_t, const runner::ProbeSpec&, const Finding& r) { show(r); };
  hooks.suite_done = [&] { progress->finish_suite(); };
  hooks.judged = [&](const Finding& f) { show(f); };
  commands::RunResult done = commands::run(a, new_report("run", g), hooks);
  // On stdout the probes were already shown one by one (on stderr) as they finished: end with the verdict.
  render::RenderOptions o = render_options(g, 1);
  o.summary_only = true;
  o.report_path = done.written;
  return emit_report(done.report, g, &o);
}

Runner setup_run(CLI::App& sub, GlobalOptions& g) {
  auto a = std::make_shared<RunArgs>();
  sub.add_option("--level", a->level, "quick (<=30 s), standard (<=3 min) or long (<=15 min) on one 8-GPU node")
      ->check(CLI::IsMember({"quick", "standard", "long"}));
  sub.add_option("--only", a->only, "Run exactly these probe ids or families (comma-separated: device.runtime,kernels), whatever their level")
      ->allow_extra_args(false)  // one argument each, split at the commas below: `--only , --x` keeps --x a flag
      ->type_name("ID,...");
  sub.add_option("--skip", a->skip, "Leave out these probe ids or families (comma-separated) from what --level or --only selects")
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
  sub.add_option("--kernel-log", a->kernel_log,
                 "Where the NVIDIA driver's Xid lines during each probe are read: auto (/dev/kmsg, else "
                 "journalctl -k), kmsg, journal, none, or a saved log FILE (dmesg/journalctl/syslog text)")
      ->type_name("SOURCE");
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
The kernel log of each probe's time (--kernel-log) is read afterwards: every
NVRM Xid line is attached to the probe that was running, with NVIDIA's meaning
and action; an Xid that needs a GPU reset or a reboot fails the node.

Examples:
  gpucheck run --level quick
  gpucheck run --only device.runtime,host.info --json
  gpucheck run --skip collectives.nccl
  gpucheck run --level long --strict --report-dir /var/log/gpucheck
  gpucheck run --thresholds site.json --baseline reports/node7-old.json)");
  return [a, &g] { return run_command(*a, g); };
}

Registration run_registration({"run", "Run the probe suite and write a report", 10, &setup_run});

}  // namespace
}  // namespace gpucheck::cli
