#pragma once
// Switching between toolkits installed side by side: shell exports for `eval "$(gpucheck use-cuda 11.8)"`
// and Environment Modules (Tcl) / Lmod (Lua) modulefiles for every toolkit.
#include <string>
#include <vector>

#include "inventory/model.h"

namespace gpucheck::envtools {

/// The toolkit for "11.8" (major.minor; /usr/local/cuda-X.Y preferred), "12" (newest 12.x), "12.1.105"
/// (exact) or an absolute root. Throws InputError listing the toolkits found when none matches.
const inventory::Toolkit& select_toolkit(const inventory::Inventory& inv, const std::string& wanted);
/// As select_toolkit, but nullptr when `wanted` is a valid version no installed toolkit has (a root that is
/// no toolkit, or a word that is no version, still throws InputError).
const inventory::Toolkit* find_toolkit(const inventory::Inventory& inv, const std::string& wanted);
/// "13.0.88 at /usr/local/cuda-13.0, ..." or "none".
std::string toolkits_found(const inventory::Inventory& inv);

/// One variable use-cuda sets.
struct ShellExport {
  std::string name;   // "CUDA_HOME"
  std::string value;  // unquoted
};

/// CUDA_HOME, CUDA_PATH, PATH and LD_LIBRARY_PATH for `t`, in that order: its bin and lib dirs go first,
/// every other known toolkit's dirs are dropped from `path` / `ld_library_path` (the current values).
std::vector<ShellExport> cuda_exports(const inventory::Inventory& inv, const inventory::Toolkit& t,
                                      const std::string& path, const std::string& ld_library_path);

/// cuda_exports as shell lines (`export NAME=value`), values single-quoted for POSIX shells.
std::string shell_exports(const inventory::Inventory& inv, const inventory::Toolkit& t, const std::string& path,
                          const std::string& ld_library_path);

struct ModuleFile {
  std::string relative_path;  // "tcl/cuda/11.8" or "lua/cuda/11.8.lua"
  std::string content;
};

/// One Tcl and one Lua modulefile per toolkit with nvcc, each with `conflict cuda` so two never load together.
/// Throws InputError when there is no toolkit, or a root cannot be written safely (braces, newlines).
/// With `refused`, a toolkit whose root or version cannot be written safely is left out and its reason
/// appended there instead (the others are still written); an InputError only when none is left.
std::vector<ModuleFile> modulefiles(const inventory::Inventory& inv, std::vector<std::string>* refused = nullptr);

/// Writes modulefiles(inv, refused) under `dir` (each file atomically, directories made as needed) and returns
/// the paths written, in order.
std::vector<std::string> write_modulefiles(const inventory::Inventory& inv, const std::string& dir,
                                           std::vector<std::string>* refused = nullptr);

/// Module name version of a toolkit: "11.8", or the full version when two toolkits share a major.minor.
std::string module_version(const inventory::Inventory& inv, const inventory::Toolkit& t);

}  // namespace gpucheck::envtools
