#pragma once
// Every copy of the CUDA runtime libraries (cudart, cuBLAS/cuBLASLt, cuDNN, NCCL, NVRTC, nvJitLink) found via
// the toolkits, LD_LIBRARY_PATH, the ld.so cache, pip `nvidia-*` packages and torch/lib; its version (read
// through dlopen in a child process on the live machine, else from the file name, the wheel's dist-info or
// the SONAME) and which copy the dynamic loader would pick for a plain dlopen(soname).
#include <map>
#include <string>
#include <vector>

#include "inventory/model.h"
#include "platform/ld_cache.h"
#include "platform/root_fs.h"
#include "inventory/toolkit_scan.h"
#include "inventory/version_prefetch.h"

namespace gpucheck::inventory {

struct LibraryScanInput {
  EnvMap env;
  std::vector<Toolkit> toolkits;
  std::vector<std::string> site_packages;
  bool read_versions = true;  // dlopen in a child (live machine only)
  std::string version_cache;  // file remembering dlopen readings by file identity ("" = none)
  const VersionPrefetch* prefetch = nullptr;  // readings already under way (cuBLAS), taken by real path
  const platform::LdCache* ld_cache = nullptr;     // the inspected system's loader cache (read_loader_cache); null: none
  // Versions a probed Python read of the libraries `import torch` had loaded (real path -> version,
  // PythonEnv::mapped_library_versions): taken before the cache and instead of a version child.
  std::map<std::string, std::string> loaded_versions;
};

std::vector<Library> scan_libraries(const platform::RootFs& fs, const LibraryScanInput& in);

/// "libcudart.so.12.1.105" -> "cudart"; "" for files that are not one of the tracked libraries
/// (static archives, libnvrtc-builtins, libcudnn_ops, ...).
std::string library_kind(const std::string& file_name);

/// Version digits after ".so." in a file name: "libcudart.so.12.1.105" -> "12.1.105", "libcudart.so" -> "".
std::string version_from_file_name(const std::string& file_name);

}  // namespace gpucheck::inventory
