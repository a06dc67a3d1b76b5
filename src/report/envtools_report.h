#pragma once
// `gpucheck use-cuda` and `gpucheck modulefiles`: the toolkit-switching documents (src/envtools) as Reports,
// so --json, --format and --out work for them as for every command. Reading the toolkits and writing the
// modulefiles is commands/envtools.cpp's.
#include <string>
#include <vector>

#include "envtools/toolkit_install.h"
#include "inventory/model.h"
#include "model/report.h"

namespace gpucheck::report {

/// How a version no toolkit here has can be put beside the others (commands::use_cuda reads both).
struct ToolkitInstallFacts {
  envtools::InstallTools tools;                       // what this machine has to run the ways with
  std::vector<envtools::ToolkitRunfile> runfiles;     // data/compat/toolkit_installers.json
};

/// The exports that select toolkit `version` ("11.8", "12", "12.1.105" or a toolkit root) of `inv`, given
/// this shell's `path` and `ld_library_path`: details {toolkit {root, version}, exports [{name, value}],
/// shell: the `export` lines for eval}. A valid version no toolkit here has: no exports (shell ""), and one
/// failed finding, use_cuda.not_installed, whose fixes are the ways to install it side by side. Throws
/// InputError for a root that is no toolkit or a word that is no version.
model::Report use_cuda_report(const inventory::Inventory& inv, const std::string& version, const std::string& path,
                       const std::string& ld_library_path, const ToolkitInstallFacts& install, model::Report rep = {});

/// The modulefiles written into `dir` (commands::modulefiles writes them): details {dir, written [paths],
/// tcl, lua}, and one fail Finding per toolkit `refused` (why it got none).
model::Report modulefiles_report(const std::string& dir, const std::vector<std::string>& written,
                          const std::vector<std::string>& refused, model::Report rep = {});

}  // namespace gpucheck::report
