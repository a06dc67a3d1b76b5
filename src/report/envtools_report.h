#pragma once
// `gpucheck use-cuda` and `gpucheck modulefiles`: the toolkit-switching documents (src/envtools) as Reports,
// so --json, --format and --out work for them as for every command.
#include <string>

#include "envtools/toolkit_install.h"
#include "report/inventory_source.h"
#include "model/report.h"

namespace gpucheck::report {

struct UseCudaRequest {
  InventorySource source;       // --from FILE / --root DIR; the toolkits are read from there
  std::string version;          // "11.8", "12", "12.1.105" or a toolkit root
  std::string path;             // this shell's PATH and LD_LIBRARY_PATH, which the exports rewrite
  std::string ld_library_path;
  compat::InstallTools tools;   // modules and program; conda and the downloader are looked up on `path`
};

/// details {toolkit {root, version}, exports [{name, value}], shell: the `export` lines for eval}. A valid
/// version no toolkit here has: no exports (shell ""), and one failed finding, use_cuda.not_installed, whose
/// fixes are the ways to install it side by side. Throws InputError for a root that is no toolkit or a
/// word that is no version.
Report use_cuda_report(const UseCudaRequest& req, Report rep = {});

struct ModulefilesRequest {
  InventorySource source;
  std::string dir;              // --dir: DIR/tcl/cuda/<version>, DIR/lua/cuda/<version>.lua
};

/// Writes the modulefiles and reports them: details {dir, written [paths], tcl, lua}.
Report modulefiles_report(const ModulefilesRequest& req, Report rep = {});

}  // namespace gpucheck::report
