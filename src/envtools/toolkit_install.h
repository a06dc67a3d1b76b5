#pragma once
// How to put a CUDA toolkit that is not installed beside the others, without touching the driver:
// NVIDIA's conda label of that release, NVIDIA's runfile with --toolkit into a prefix of its own, and then
// a modulefile and `use-cuda` to switch to it. The facts (runfile names, flags, channels) and their
// sources are data/compat/toolkit_installers.json.
#include <string>
#include <vector>

#include <optional>

#include "core/finding.h"

namespace gpucheck::envtools {

/// What this machine has to run the ways with: a command is printed only for a tool that is there.
struct InstallTools {
  bool conda = false;       // `conda` on PATH
  std::string downloader;   // "curl" or "wget" on PATH; "" = neither (the URL is named instead)
  std::string modules;      // "lua" (Lmod), "tcl" (Environment Modules) or "" (no module system)
  std::string program = "gpucheck";  // how to run this gpucheck, already quoted for the shell
};

/// NVIDIA's runfile of one CUDA release: the last update of a major.minor, whose name carries the driver
/// it bundles (which --toolkit leaves out).
struct ToolkitRunfile {
  std::string cuda;     // "11.8"
  std::string release;  // "11.8.0"
  std::string runfile;  // "cuda_11.8.0_520.61.05_linux.run"
  std::string url;      // where NVIDIA publishes it
};

/// The recorded runfiles (`dir`/toolkit_installers.json, default data_path("compat")), validated as every
/// knowledge-base file. Throws InputError naming the file and fact when it is missing or malformed.
std::vector<ToolkitRunfile> load_toolkit_runfiles(const std::string& dir = "");

/// The runfile of the newest recorded release of "11.8" (major.minor) or "12" (a major); nullopt when none.
std::optional<ToolkitRunfile> runfile_for(const std::vector<ToolkitRunfile>& runfiles, const std::string& cuda);

/// The ways to get CUDA `wanted` ("11.8", "12", "12.1.105") side by side, best first: conda, the runfile,
/// then its modulefile and the switch. Each into /opt/cuda-X.Y, where gpucheck finds toolkits.
std::vector<Fix> toolkit_install_ways(const std::vector<ToolkitRunfile>& runfiles, const std::string& wanted,
                                      const InstallTools& tools);

}  // namespace gpucheck::envtools
