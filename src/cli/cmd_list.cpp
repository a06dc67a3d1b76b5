#include "cli/command.h"
#include "core/paths.h"
#include "report/list_report.h"
#include "runner/catalog.h"

namespace gpucheck::cli {
namespace {

Runner setup_list(CLI::App& sub, GlobalOptions& g) {
  sub.footer("Lists the probes this installation has, with their levels and timeouts.\n"
             "Example: gpucheck list --json | jq '.sections[0].findings[].id'");
  return [&g] {
    auto catalog = runner::load_catalog(data_path("probes"), probe_dir());
    report::Report rep = report::list_report(catalog, new_report("list", g));
    return emit_report(rep, g);
  };
}

Registration reg({"list", "List the available probes", 15, &setup_list});

}  // namespace
}  // namespace gpucheck::cli
