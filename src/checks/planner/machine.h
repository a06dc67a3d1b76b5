#pragma once
// What a plan must fit: the interpreter it installs into, the driver, every GPU, glibc and the toolkit a
// source build would use. Built from the inventory (doctor) or from what a log and an optional inventory
// say (explain); a field left empty is unknown and constrains nothing (the plan says so).
#include <map>
#include <string>
#include <vector>

#include "inventory/model.h"

namespace gpucheck::planner {

struct Machine {
  std::string python;          // interpreter the commands run: "/opt/venv/bin/python"; "python3" when unknown
  std::string python_version;  // "3.11.7"; "" unknown
  bool externally_managed = false;  // PEP 668: pip refuses to install here; plans create a venv first
  bool conda = false;               // a conda executable or environment exists (conda commands allowed)
  std::string driver_cuda;     // newest CUDA the driver runs, "13.0"; "" unknown
  std::string driver_version;  // "525.60.13": newer minors of its major run under minor-version compatibility
  std::vector<std::string> gpu_ccs;  // every GPU's compute capability, "9.0" (deduplicated)
  std::string glibc;           // "2.36"
  bool toolkit_known = true;   // false: nothing says whether a toolkit exists (a log alone); builds not judged
  std::string nvcc;            // CUDA of the nvcc a build would use, "13.0"; "" none found
  std::string nvcc_root;       // its toolkit root
  std::vector<std::pair<std::string, std::string>> other_toolkits;  // (major.minor, root) a build may switch to
  std::string gcc;             // host compiler version nvcc would use, "12.2.0"
  std::string installed_torch;       // "2.5.1+cu124"; "" none
  std::string installed_torch_cuda;  // "12.4"; "" CPU build or none
  std::vector<std::string> installed_torch_archs;  // sm_80 ...
  std::map<std::string, std::string> installed;    // normalised name -> version
  std::string arch_list;       // TORCH_CUDA_ARCH_LIST of the environment, "" unset
};

/// The machine of `python` (may be null: no interpreter known) in `inv`. `nvcc`/`nvcc_root` are the build
/// toolkit's; the caller resolves it (doctor's BuildToolkit), since that rule lives with doctor.
Machine machine_from_inventory(const inventory::Inventory& inv, const inventory::PythonEnv* python,
                               const std::string& nvcc, const std::string& nvcc_root);

}  // namespace gpucheck::planner
