#pragma once
// `gpucheck use-cuda` and `gpucheck modulefiles`: read the toolkits (and this shell's PATH and
// LD_LIBRARY_PATH), write the modulefiles; report/envtools_report.h turns what was done into a Report.
#include <string>

#include "model/report.h"
#include "commands/inventory_source.h"

namespace gpucheck::commands {

struct UseCudaRequest {
  commands::InventorySource source;  // --from FILE / --root DIR; the toolkits are read from there
  std::string version;             // "11.8", "12", "12.1.105" or a toolkit root
  std::string program = "gpucheck";  // how the user ran gpucheck, quoted for the shell (for printed ways)
};

/// The exports that switch this shell (its PATH and LD_LIBRARY_PATH) to the toolkit asked; for a version
/// not installed, a failed finding with the ways to install it that this machine's tools can run. Throws
/// InputError for a toolkit root that is none, or a word that is no version.
model::Report use_cuda(const UseCudaRequest& request, model::Report base);

struct ModulefilesRequest {
  commands::InventorySource source;
  std::string dir;  // --dir: DIR/tcl/cuda/<version>, DIR/lua/cuda/<version>.lua
};

/// Writes a Tcl and a Lua modulefile per toolkit found and reports them.
model::Report modulefiles(const ModulefilesRequest& request, model::Report base);

}  // namespace gpucheck::commands
