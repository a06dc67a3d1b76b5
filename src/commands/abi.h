#pragma once
// `gpucheck abi`: read the GPUs and driver (an inventory named, or this machine's in a child), audit the
// targets (checks/abi: ELF files read, nothing loaded in-process), then report::abi_report.
#include "checks/abi/request.h"
#include "model/report.h"
#include "commands/inventory_source.h"

namespace gpucheck::commands {

struct AbiOptions {
  abi::AbiRequest request;            // targets, preloads, --gpu, ...; its inventory is filled from `inventory`
  commands::InventorySource inventory;  // --from FILE / --root DIR: the GPUs and driver; this machine when neither and no --gpu
  bool strict = false;                // --strict: a warning fails (Metadata::warn_fails)
};

/// Audits into `into` (metadata stamped by the caller, e.g. cli::new_report). An unusable object is a
/// problem found, except a single target named on the command line, which is bad input. Throws InputError
/// on bad input (as abi::run_abi, and an unreadable --from).
model::Report abi(const AbiOptions& options, model::Report into = {});

}  // namespace gpucheck::commands
