#pragma once
// Turns what the user asked for (`gpucheck abi ...` options, or the abi.extensions probe) into targets,
// preloads and GPUs, and runs the audit.
#include <optional>
#include <string>
#include <vector>

#include "checks/abi/audit.h"
#include "inventory/model.h"

namespace gpucheck::abi {

struct AbiRequest {
  std::vector<std::string> paths;            // FILE|DIR...
  std::vector<std::string> python_packages;  // --python-package
  std::string python;                        // --python; "" = python3 on PATH
  bool torch_extensions = false;             // --torch-extensions
  bool torch = false;                        // --torch
  bool with_torch = false;                   // --with-torch: every target after `import torch` of --python's torch
  bool no_torch = false;                     // --no-torch: not even the torch of the target's own site-packages
  std::string torch_lib;                     // --torch-lib DIR: preload this LibTorch instead
  std::vector<std::string> preload;          // --preload
  std::vector<std::string> gpus;             // --gpu sm_90
  std::optional<inventory::Inventory> inventory;  // its GPUs and driver (--from FILE / --root DIR)
  bool live_inventory = true;                // without an inventory or --gpu: inventory::collect() for GPUs
  bool symbols = true;
  bool cross_check = false;                  // --cross-check with cuobjdump
  std::string cuobjdump;                     // --cuobjdump PATH (implies cross_check)
  bool all_device_code = false;              // --all-device-code: scan data sections whatever the verdicts
  std::string ld_cache = "/etc/ld.so.cache"; // --ld-cache
};

/// Throws InputError on bad input (no target, unknown package, bad --gpu).
AuditReport run_abi(const AbiRequest& req);

}  // namespace gpucheck::abi
