#pragma once
// Collects the inventory of the live machine (or of a mounted tree with `root`).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "inventory/model.h"

namespace gpucheck::inventory {

struct CollectOptions {
  std::string root = "/";               // inspect a mounted image/chroot: files only, nothing executed there
  bool python = true;                   // probe Python environments (slowest part)
  std::vector<std::string> pythons;     // extra interpreters (--python PATH)
  /// The environment consumers would see. Unset: this process's environment on the live machine; under
  /// --root the host's environment says nothing about the image, so only a standard PATH is assumed.
  std::optional<std::map<std::string, std::string>> environment;
  bool read_library_versions = true;    // dlopen each library in a child (live machine only)
  std::string version_cache;            // remembers dlopen readings by file identity ("" = off)
  bool timings = false;                 // add "timing: ..." notes (gpucheck env --verbose)
};

/// Throws InputError for a --root that is not a directory or a --python that is not a Python interpreter.
Inventory collect(const CollectOptions& options);

/// Only what device-code verdicts need, on this machine: the GPUs and the driver, both asked in the
/// gpucheck-gpuinfo child (nothing is loaded in-process; no toolkit, library or compiler scan). What
/// `gpucheck abi` collects when no --gpu/--from/--root names the GPUs. CUDA_VISIBLE_DEVICES applies.
Inventory collect_devices();

/// The PATH assumed inside a --root image (the one NVIDIA's CUDA container images set).
inline constexpr const char* kImageDefaultPath =
    "/usr/local/nvidia/bin:/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

}  // namespace gpucheck::inventory
