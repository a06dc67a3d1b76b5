// `gpucheck explain LOG|-`: options only; commands::explain does the work and emit_report shows it.
#include "cli/command.h"
#include "commands/explain.h"

namespace gpucheck::cli {
namespace {

Runner setup_explain(CLI::App& sub, GlobalOptions& g) {
  auto req = std::make_shared<commands::ExplainRequest>();
  sub.add_option("log", req->log, "The log file, or - for stdin")->type_name("LOG")->required();
  add_inventory_source(sub, req->source, /*python=*/true);
  sub.add_option("--env", req->source.from, "The same as --from (the older name)")
      ->type_name("FILE")
      ->excludes(sub.get_option("--from"));
  sub.add_flag("--no-env", req->no_env, "Do not inspect this machine; explain the log alone");
  sub.add_option("--signatures", req->signatures_dir, "Signature directory (default: the installed data/signatures)")
      ->type_name("DIR");
  sub.footer(R"(Names each failure cause found in a pasted log (pip build output, import errors, CUDA runtime
errors), shows the evidence lines with their numbers, explains it and gives the commands that fix it.
Nothing in the log is executed. The fixes quote this machine's inventory unless --no-env, or the one
given with --from FILE (`gpucheck env --json` output or a report; --env FILE is the same) or --root DIR.
Exit: 0 a cause was identified, 1 none (unknown), 2 bad input.

Examples:
  gpucheck explain pip-install.log
  pip install bmtrain 2>&1 | gpucheck explain -
  gpucheck explain build.log --from env.json --json)");
  return [req, &g] {
    model::Report rep = commands::explain(*req, new_report("explain", g));
    return emit_report(rep, g);
  };
}

Registration explain_registration({"explain", "Explain a failure log: cause, evidence, fix", 40, &setup_explain});

}  // namespace
}  // namespace gpucheck::cli
