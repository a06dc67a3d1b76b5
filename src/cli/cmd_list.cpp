#include "cli/command.h"
#include "commands/tool.h"

namespace gpucheck::cli {
namespace {

Runner setup_list(CLI::App& sub, GlobalOptions& g) {
  sub.footer("Lists the probes this installation has, with their levels and timeouts.\n"
             "Example: gpucheck list --json | jq '.sections[0].findings[].id'");
  return [&g] {
    model::Report rep = commands::list(new_report("list", g));
    return emit_report(rep, g);
  };
}

Registration list_registration({"list", "List the available probes", 15, &setup_list});

}  // namespace
}  // namespace gpucheck::cli
