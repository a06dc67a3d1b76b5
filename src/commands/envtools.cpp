#include "commands/envtools.h"

#include <cstdlib>

#include "envtools/cuda_env.h"
#include "platform/root_fs.h"
#include "report/envtools_report.h"

namespace gpucheck::commands {
namespace {

// Only the toolkits matter here: no Python probes.
inventory::Inventory toolkits_inventory(const commands::InventorySource& source) {
  inventory::CollectOptions co;
  co.python = false;
  return commands::load_inventory(source, co);
}

std::string getenv_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

}  // namespace

model::Report use_cuda(const UseCudaRequest& request, model::Report base) {
  const inventory::Inventory inv = toolkits_inventory(request.source);
  // PATH and LD_LIBRARY_PATH are this shell's, so `eval` keeps everything else the user had.
  const std::string path = getenv_or_empty("PATH");
  report::ToolkitInstallFacts install;
  if (!envtools::find_toolkit(inv, request.version)) {
    const platform::RootFs fs;  // this machine: which tools a printed way may name
    install.tools.conda = !fs.which("conda", path).empty();
    install.tools.downloader = !fs.which("curl", path).empty()   ? "curl"
                               : !fs.which("wget", path).empty() ? "wget"
                                                                 : "";
    install.tools.modules = !getenv_or_empty("LMOD_CMD").empty()     ? "lua"
                            : !getenv_or_empty("MODULESHOME").empty() ? "tcl"
                                                                      : "";
    install.tools.program = request.program;
    install.runfiles = envtools::load_toolkit_runfiles();
  }
  return report::use_cuda_report(inv, request.version, path, getenv_or_empty("LD_LIBRARY_PATH"), install,
                                 std::move(base));
}

model::Report modulefiles(const ModulefilesRequest& request, model::Report base) {
  const inventory::Inventory inv = toolkits_inventory(request.source);
  std::vector<std::string> refused;  // toolkits left out; the good ones are still written
  std::vector<std::string> written = envtools::write_modulefiles(inv, request.dir, &refused);
  return report::modulefiles_report(request.dir, written, refused, std::move(base));
}

}  // namespace gpucheck::commands
