#pragma once
// What `gpucheck abi` audits: files and directory trees (symlink loops detected), a Python package's
// shared objects, every torch extension in an environment, or torch's own libraries. Python is asked only
// where things are (importlib find_spec, site), never to import the packages themselves.
#include <string>
#include <vector>

namespace gpucheck::abi {

struct TargetSet {
  std::vector<std::string> files;   // ELF objects to audit, deduplicated by real path
  std::vector<std::string> notes;   // directory loops, unreadable directories
};

/// Adds `input` (an ELF file, or a directory walked recursively for ELF files) to `set`.
/// Throws InputError when `input` does not exist or is a file that is not ELF.
void add_path_target(const std::string& input, TargetSet& set);

struct PythonEnvPaths {
  std::string executable;                  // sys.executable
  std::vector<std::string> site_packages;  // its site-packages/dist-packages on sys.path (platform::PythonFacts)
  std::string torch_dir;                   // .../site-packages/torch, "" when torch is not installed
};

/// Runs `python` once to locate things. Throws InputError when it cannot be run.
PythonEnvPaths probe_python(const std::string& python);

/// Files and directories of an importable module or an installed distribution (`flash_attn`,
/// `flash-attn`). Throws InputError when neither exists in that environment.
/// `requires_names` (when given): the names its metadata's Requires-Dist lists (no extras), lower case.
std::vector<std::string> python_package_paths(const std::string& python, const std::string& name,
                                              std::vector<std::string>* requires_names = nullptr);

/// Shared objects under site-packages that link libc10/libtorch (torch's own excluded).
std::vector<std::string> torch_extension_files(const PythonEnvPaths& env, TargetSet& set);

/// torch's own libraries: torch/lib/*.so* and torch/_C*.so.
std::vector<std::string> torch_library_files(const std::string& torch_dir);

/// Libraries the parent process has loaded once `import torch` ran, in load order, from a torch lib
/// directory (site-packages/torch/lib or a LibTorch lib/).
std::vector<std::string> torch_preload(const std::string& torch_lib_dir);

}  // namespace gpucheck::abi
