// `gpucheck compare BASE NEW`: options only; commands::compare reads the documents and gates them.
#include "cli/command.h"
#include "core/errors.h"
#include "commands/compare.h"

namespace gpucheck::cli {
namespace {

Runner setup_compare(CLI::App& sub, GlobalOptions& g) {
  auto req = std::make_shared<commands::CompareRequest>();
  auto files = std::make_shared<std::vector<std::string>>();
  sub.add_option("documents", *files, "BASE NEW (only NEW with --baseline-dir/--history)")
      ->type_name("FILE")
      ->expected(1, 2);
  auto* bd = sub.add_option("--baseline-dir", req->baseline_dir, "BASE = the newest document in DIR with NEW's key")
                 ->type_name("DIR");
  sub.add_option("--history", req->history_dir, "Every document in DIR with NEW's key: step change")
      ->type_name("DIR")
      ->excludes(bd);
  sub.add_option("--threshold", req->options.gate.threshold, "Slowdown of the median that counts (0.05 = 5%)")
      ->default_val(0.05);
  sub.add_option("--alpha", req->options.gate.alpha, "Significance level of the U test (two-sided)")
      ->default_val(0.01);
  sub.add_flag("--allow-mismatch", req->options.allow_mismatch,
               "Compare runs of other GPUs/drivers/libraries too");
  sub.footer(R"(For every benchmark in both documents: the change of the median time and a
two-sided Mann-Whitney U test on the repetitions (exact p for small samples).
A REGRESSION is a change worse than --threshold AND significant at --alpha;
improvements never fail. The same inputs always give the same verdict. Runs
from another hardware+software combination (the key `gpucheck bench` writes)
are reported and not compared unless --allow-mismatch. --format markdown
gives a table for a CI comment (docs/regression.md).
Exit: 0 no regression, 1 a regression, 2 bad input, 3 refused (contexts differ).

Examples:
  gpucheck compare base.json new.json
  gpucheck compare --baseline-dir baselines/ new.json --format markdown
  gpucheck compare --history runs/ new.json --threshold 0.03)");
  return [req, files, &g] {
    const bool dir = !req->baseline_dir.empty() || !req->history_dir.empty();
    if (dir && files->size() != 1) throw InputError("with --baseline-dir or --history give only NEW");
    if (!dir && files->size() != 2) throw InputError("give BASE and NEW (or NEW with --baseline-dir DIR)");
    req->current = files->back();
    if (!dir) req->base = files->front();
    model::Report rep = commands::compare(*req, new_report("compare", g));
    return emit_report(rep, g);
  };
}

Registration compare_registration({"compare", "Gate two benchmark documents: regressions by a U test and a threshold", 51, &setup_compare});

}  // namespace
}  // namespace gpucheck::cli
