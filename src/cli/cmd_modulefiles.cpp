// gpucheck modulefiles --dir DIR: Environment Modules (Tcl) and Lmod (Lua) files for every toolkit found.
#include "cli/command.h"
#include "commands/envtools.h"

namespace gpucheck::cli {
namespace {

Runner setup_modulefiles(CLI::App& sub, GlobalOptions& g) {
  auto req = std::make_shared<commands::ModulefilesRequest>();
  sub.add_option("--dir", req->dir, "Directory to write DIR/tcl/cuda/<version> and DIR/lua/cuda/<version>.lua into")
      ->type_name("DIR")
      ->required();
  add_inventory_source(sub, req->source, /*python=*/false);
  sub.footer(R"(Every modulefile sets CUDA_HOME and CUDA_PATH, prepends PATH and LD_LIBRARY_PATH, and carries
`conflict cuda` so two toolkits are never loaded together. --out FILE writes the report (what was written),
like every command.

Example:
  gpucheck modulefiles --dir ~/modulefiles && module use ~/modulefiles/lua && module load cuda/11.8)");
  return [req, &g] {
    model::Report rep = commands::modulefiles(*req, new_report("modulefiles", g));
    return emit_report(rep, g);
  };
}

Registration modulefiles_registration({"modulefiles", "Write Tcl and Lua modulefiles for every CUDA toolkit found", 32, &setup_modulefiles});

}  // namespace
}  // namespace gpucheck::cli
