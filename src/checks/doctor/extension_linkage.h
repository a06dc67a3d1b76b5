#pragma once
// What an installed extension's own shared objects (its RECORD) link against the torch installed beside
// it, judged as `import torch` then `import ext` load them (checks/abi: the loader model and torch's import
// model, nothing executed). This is the build's provenance that counts: a torch symbol the installed torch
// does not define means it was built for another torch; a symbol torch defines but loads RTLD_LOCAL
// (libnccl) means the extension never linked that library. Versions, tags and file times prove neither.
#include <string>
#include <vector>

#include "checks/abi/diagnosis.h"
#include "inventory/model.h"

namespace gpucheck::doctor {

struct ModuleLinkage {
  std::string path;                      // the extension's shared object
  std::vector<abi::SymbolGroup> groups;  // what it cannot bind, by cause (abi's categories)
  std::string torch_how;                 // which path of torch/__init__.py the judged process follows
};

struct ExtensionLinkage {
  bool checked = false;  // the files were there and read (live inventory); false: nothing is known
  std::string why_not;   // when not checked
  std::vector<ModuleLinkage> modules;  // only those with something unbound
};

/// The shared objects `dist`'s RECORD lists that are on disk with the RECORD's size, in RECORD order.
std::vector<std::string> record_shared_objects(const inventory::Distribution& dist);

/// Audits each shared object of `dist` in the process `import torch` of `py` builds, with this
/// LD_LIBRARY_PATH and TORCH_USE_RTLD_GLOBAL (the inventory's values).
ExtensionLinkage extension_linkage(const inventory::PythonEnv& py, const inventory::Distribution& dist,
                                   const std::string& ld_library_path, bool torch_rtld_global);

}  // namespace gpucheck::doctor
