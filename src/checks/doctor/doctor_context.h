#pragma once
// What every doctor rule reads: the inventory, the knowledge base, and the answers several rules share
// (which Python pip would use, which toolkit an extension build would pick).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "knowledge/knowledge_base.h"
#include "inventory/model.h"

namespace gpucheck::doctor {

/// The toolkit torch.utils.cpp_extension would build with, resolved from the inventory the way torch does
/// (CUDA_HOME, CUDA_PATH, nvcc on PATH, /usr/local/cuda).
struct BuildToolkit {
  const inventory::Toolkit* toolkit = nullptr;  // nullptr: none would be found (or the variable dangles)
  std::string via;       // "CUDA_HOME", "CUDA_PATH", "PATH", "/usr/local/cuda", "inventory"
  std::string reason;    // for the reader: "CUDA_HOME=/usr/local/cuda-12.1", or the collector's own words
  std::string variable;  // the variable that chose it, "CUDA_HOME" or "CUDA_PATH"; "" when none did
  std::string value;     // that variable's value
  bool dangling = false;      // the choice names a directory that holds no known toolkit
  std::string dangling_path;  // that directory
};

struct DoctorContext {
  DoctorContext(const inventory::Inventory& inventory, const knowledge::KnowledgeBase& knowledge);

  const inventory::Inventory& inv;
  const knowledge::KnowledgeBase& kb;
  const inventory::PythonEnv* python = nullptr;  // the judged environment (inventory::judged_python's rule)
  std::string python_rule;  // which route of that rule chose it: "--python", "VIRTUAL_ENV", "PATH", ...
  BuildToolkit build;
  const inventory::Toolkit* path_toolkit = nullptr;  // the toolkit whose nvcc is first on PATH

  /// Allow-listed environment variable from the inventory; "" when unset.
  std::string env(const std::string& name) const;
  bool has_env(const std::string& name) const;
  /// "python 3.10.12 at /opt/env/bin/python"
  std::string python_label() const;
  /// The judged Python is a pasted report's (a collect_env or another format), not one probed here.
  bool python_from_paste() const;
  /// The toolkit installed at `root` (trailing slashes and the /usr/local/cuda link tolerated); nullptr if none.
  const inventory::Toolkit* toolkit_at(const std::string& root) const;
  /// Installed toolkits with this major.minor, /usr/local/cuda-X.Y first.
  std::vector<const inventory::Toolkit*> toolkits_with(const std::string& major_minor) const;
  /// The torch.version.cuda of the primary Python, "" for CPU builds or no torch.
  std::string torch_cuda() const;
  /// What importing `distribution`'s module raised in the judged Python (the probe imports the GPU packages
  /// it knows, after torch): "flash-attn" is looked up as itself and as "flash_attn"; "" when nothing raised.
  std::string import_error(const std::string& distribution) const;
  /// `path` with its symbolic links resolved (lexically normalised when it does not exist), remembered for
  /// this run: the library rules compare each library with every library torch mapped, which was some 500
  /// realpath walks (8,000 readlink calls) of a warm `doctor` on a torch venv.
  const std::string& real_path(const std::string& path) const;

 private:
  mutable std::map<std::string, std::string> real_paths_;
};

/// "12.1.105" -> "12.1"; "" stays "".
std::string major_minor(const std::string& version);

/// lib64 when the toolkit has it (or cannot be checked), else lib.
std::string toolkit_lib_dir(const inventory::Toolkit& t);

}  // namespace gpucheck::doctor
