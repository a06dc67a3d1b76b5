#pragma once
// `gpucheck abi`: for each target object, its load closure, the symbols and versions it cannot bind,
// grouped with a likely cause, its C++ ABI against the torch it loads, and its CUDA device code with a
// verdict per GPU. Nothing is imported or executed.
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "checks/abi/cuda_verdict.h"
#include "checks/abi/cuobjdump.h"
#include "checks/abi/cxx_abi.h"
#include "checks/abi/diagnosis.h"
#include "checks/abi/loader.h"
#include "checks/abi/torch_import.h"
#include "core/finding.h"  // Status

namespace gpucheck::abi {

struct AuditOptions {
  std::vector<std::string> preload;       // loaded globally by the parent before the targets (--preload)
  std::vector<Preload> torch_loads;       // --with-torch / --torch-lib: what `import torch` left loaded
  std::string torch_dir;                  // the torch they come from
  std::string torch_chosen_by;            // how torch_loads were chosen ("--with-torch", "--torch-lib")
  std::string torch_how;                  // which path of torch/__init__.py torch_loads follow
  /// Without torch_loads: a target that links torch is judged after `import torch` of its own
  /// site-packages (checks/abi/torch_import.h), hosted by that environment's interpreter.
  bool site_torch = true;
  bool torch_rtld_global = false;         // TORCH_USE_RTLD_GLOBAL in the environment of the import
  std::string python;                     // interpreter hosting extension modules (auto-preloaded for PyInit_*)
  bool python_given = false;              // --python: host every target with it, whatever its site-packages
  std::vector<GpuTarget> gpus;            // GPUs to judge device code against
  bool symbols = true;                    // bind symbols (off: dependencies only, like plain ldd)
  std::string cuobjdump;                  // cross-check fatbins with this cuobjdump; "" = none
  bool all_device_code = false;           // scan data sections for embedded fatbins even when no verdict needs it
  LoaderConfig loader;
};

struct FatbinInfo {
  std::string section;                    // ".nv_fatbin" or "__nv_relfatbin"
  std::vector<FatbinEntry> entries;
  std::string error;
};

/// The process a target is judged in: its interpreter and the torch imported before it.
struct HostProcess {
  std::string python;                     // ELF executable preloaded for a module living in Python; "" none
  std::string torch_dir;                  // "" when no torch is imported first
  std::string chosen_by;                  // "site-packages of the target", "--with-torch", "--torch-lib"
  std::string how;                        // which path of torch/__init__.py, RTLD_GLOBAL or not
  /// What the parent had loaded before the target: in the target's lookup scope (global, or in its own
  /// closure), or loaded RTLD_LOCAL by someone else and invisible to it.
  std::vector<std::string> visible, not_visible;
};

struct TargetReport {
  std::string path;
  std::string error;                      // the target is not a usable ELF object
  HostProcess host;
  LoadGraph graph;
  SymbolCheck check;
  std::vector<SymbolGroup> groups;
  CxxAbiUse cxx_abi;
  std::map<std::string, std::string> version_needs;  // newest_version_needs() of the target itself
  std::string torch_path;                 // libc10/libtorch in the closure, when any
  CxxAbiUse torch_cxx_abi;
  bool cxx_abi_mismatch = false;
  std::vector<FatbinInfo> fatbins;
  std::string data_sections;              // "scanned" for embedded fatbins, or "not scanned: <why>"
  std::vector<GpuVerdict> verdicts;
  CuobjdumpListing cuobjdump;
  std::string cuobjdump_disagreement;     // "" when it agrees or did not run
  bool symbols_checked = false;           // false under --no-symbols (or when the object was unusable)
  Status status = Status::kPass;
  std::vector<std::string> problems;      // one line each, in the order found
  /// What problems[i] is, one word per kind (the Finding id is "abi." + the first; docs/abi.md):
  /// unusable_object, missing_library, symbols.<group category>, cxx_abi, bad_fatbin, device_code,
  /// cuobjdump_disagrees.
  std::vector<std::string> problem_kinds;
};

struct AuditReport {
  std::vector<TargetReport> targets;
  std::vector<std::string> notes;         // directory loops, skipped files
  /// --python-package NAME that is installed but does not import: {NAME, what import raised}.
  std::vector<std::pair<std::string, std::string>> import_failures;
  double seconds = 0;
  std::size_t objects_parsed = 0;
  Status status = Status::kPass;
};

class Auditor {
 public:
  explicit Auditor(AuditOptions options);
  TargetReport audit(const std::string& path);
  AuditReport audit_all(const std::vector<std::string>& paths);
  ObjectCache& cache() { return cache_; }

 private:
  void read_device_code(const platform::ElfObject& o, TargetReport& t) const;
  AuditOptions opt_;
  ObjectCache cache_;
  BindingCache binding_;
  PtxIsaTable ptx_;
  DiagnosisContext diag_;
  std::map<std::string, std::string> python_exe_;  // --python -> its ELF executable
  std::map<std::string, TorchImport> torch_imports_;  // site torch dir -> its import
};

/// The fat binaries the CUDA runtime registers (".nv_fatbin", "__nv_relfatbin"): entry headers only.
std::vector<FatbinInfo> read_registered_fatbins(const platform::ElfObject& o);
/// Fat binaries embedded in data sections (cuFFT keeps ~24,000 in .ldata): reads every data byte.
std::vector<FatbinInfo> read_embedded_fatbins(const platform::ElfObject& o);
/// Both. ElfError (the file changed while read) passes through.
std::vector<FatbinInfo> read_fatbins(const platform::ElfObject& o);

nlohmann::json to_json(const TargetReport& t);
nlohmann::json to_json(const AuditReport& r);

}  // namespace gpucheck::abi
