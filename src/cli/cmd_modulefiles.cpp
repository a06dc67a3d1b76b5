// gpucheck modulefiles --out DIR: Environment Modules (Tcl) and Lmod (Lua) files for every toolkit found.
#include <iostream>

#include "cli/command.h"
#include "envtools/cuda_env.h"
#include "core/errors.h"
#include "core/files.h"
#include "inventory/collect.h"

namespace gpucheck::cli {
namespace {

struct ModulefilesArgs {
  std::string dir;
  std::string from;
};

int modulefiles_command(const ModulefilesArgs& a, const GlobalOptions& g) {
  inventory::Inventory inv;
  if (!a.from.empty()) {
    inv = inventory::load_inventory(a.from);
  } else {
    inventory::CollectOptions co;
    co.python = false;
    inv = inventory::collect(co);
  }
  auto files = compat::modulefiles(inv);
  nlohmann::json written = nlohmann::json::array();
  for (const auto& f : files) {
    std::string path = a.dir + "/" + f.relative_path;
    make_dirs(path.substr(0, path.rfind('/')));
    write_file_atomic(path, f.content);
    written.push_back(path);
  }
  if (g.json) {
    std::cout << nlohmann::json{{"written", written}, {"tcl", a.dir + "/tcl"}, {"lua", a.dir + "/lua"}}.dump(2) << "\n";
  } else if (!g.quiet) {
    for (const auto& w : written) std::cout << "wrote " << w.get<std::string>() << "\n";
    std::cout << "use with: module use " << a.dir << "/tcl   (Environment Modules)  or  module use " << a.dir
              << "/lua   (Lmod)\n";
  }
  return kExitOk;
}

Runner setup_modulefiles(CLI::App& sub, GlobalOptions& g) {
  auto a = std::make_shared<ModulefilesArgs>();
  sub.add_option("--out", a->dir, "Directory to write DIR/tcl/cuda/<version> and DIR/lua/cuda/<version>.lua into")
      ->required();
  sub.add_option("--from", a->from, "Take the toolkits from this inventory document instead of this machine");
  sub.footer(R"(Every modulefile sets CUDA_HOME and CUDA_PATH, prepends PATH and LD_LIBRARY_PATH, and carries
`conflict cuda` so two toolkits are never loaded together.

Example:
  gpucheck modulefiles --out ~/modulefiles && module use ~/modulefiles/lua && module load cuda/11.8)");
  return [a, &g] { return modulefiles_command(*a, g); };
}

Registration reg({"modulefiles", "Write Tcl and Lua modulefiles for every CUDA toolkit found", 32, &setup_modulefiles});

}  // namespace
}  // namespace gpucheck::cli
