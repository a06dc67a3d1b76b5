#pragma once
// What `import torch` leaves loaded in a Python process, read from torch's own files (never imported), so
// that an extension is judged as `import ext` after `import torch` would judge it. torch/__init__.py
// (1.x to 2.x): `_load_global_deps()` opens lib/libtorch_global_deps.so with RTLD_GLOBAL (its closure,
// cudart, cuBLAS, cuFFT, ..., joins the global scope), then `from torch._C import *` opens _C with
// Python's default flags, RTLD_LOCAL (libtorch_python -> libtorch_cuda -> libnccl, libcudnn: loaded and
// matched by SONAME, but invisible to a later extension that does not link them). With
// TORCH_USE_RTLD_GLOBAL set (or USE_RTLD_GLOBAL_WITH_LIBTORCH = True in torch/_utils_internal.py) torch
// skips the global deps and opens _C with RTLD_GLOBAL: everything it loads is visible.
// 1.13-2.4: when libtorch_global_deps.so fails to load for a CUDA library (the nvidia-* wheels in another
// sys.path entry than torch, purelib vs platlib), `_preload_cuda_deps` opens each library of its list
// RTLD_LOCAL from <entry>/nvidia/<folder>/lib, then the global deps again; none found: ValueError.
#include <string>
#include <vector>

#include "checks/abi/loader.h"

namespace gpucheck::abi {

struct TorchImport {
  std::string torch_dir;
  std::vector<Preload> loads;  // in the order torch opens them
  bool rtld_global = false;    // _C opened with RTLD_GLOBAL
  std::string how;             // one line: which path of torch/__init__.py applies, and why
  bool import_fails = false;   // torch/__init__.py itself raises (1.13-2.4's fallback finds no CUDA wheel)
};

/// `import torch` from `torch_dir` (site-packages/torch). `env_rtld_global`: TORCH_USE_RTLD_GLOBAL is set
/// in the environment the import runs in. Without _C (not an importable torch), lib/'s libc10/libtorch
/// libraries as loaded RTLD_LOCAL; throws InputError when there are none either. `cfg` (null: this host's
/// loader) decides whether lib/libtorch_global_deps.so loads, which torch 1.13-2.4 follow with their
/// preload fallback.
TorchImport torch_import(const std::string& torch_dir, bool env_rtld_global, const LoaderConfig* cfg = nullptr);

/// TORCH_USE_RTLD_GLOBAL as torch reads it (os.getenv: set and non-empty) from this process's environment.
bool torch_rtld_global_from_env();

/// The site-packages (or dist-packages) directory holding `target`, "" when it lives in none.
std::string enclosing_site_packages(const std::string& target);

/// `site/torch` when torch is installed there (torch/__init__.py), else "".
std::string site_torch_dir(const std::string& site_packages);

/// The interpreter of the environment that owns `site_packages` (<prefix>/lib/pythonX.Y/site-packages ->
/// <prefix>/bin/pythonX.Y, python3, python), "" when none is there (Debian's dist-packages: /usr/bin/python3).
std::string site_python(const std::string& site_packages);

/// Does `o` link torch (DT_NEEDED libc10* or libtorch*)?
bool links_torch(const platform::ElfObject& o);

}  // namespace gpucheck::abi
