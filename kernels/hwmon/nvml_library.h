#pragma once
// THE NVML binding: libnvidia-ml.so.1 loaded with dlopen (never nvidia-smi's text), its session
// (nvmlInit_v2 at construction, nvmlShutdown at destruction) and typed lookup of the functions a reader
// calls. device.health (probes/device_health) and the samplers of the copy and stress probes (nvml_lite.h)
// both load NVML through it, so the library they read, and why it is unusable, are found one way.
#include <string>
#include <vector>

#include "core/dynamic_library.h"

namespace gpucheck::kernels {

inline constexpr int kNvmlSuccess = 0;  // NVML_SUCCESS

class NvmlLibrary {
 public:
  /// Loads $GPUCHECK_NVML, else libnvidia-ml.so.1; checks nvmlInit_v2 and every name in `required`
  /// exist, then calls nvmlInit_v2. ok() says whether all of that worked; the others say what did not.
  explicit NvmlLibrary(const std::vector<std::string>& required = {});
  ~NvmlLibrary();
  NvmlLibrary(const NvmlLibrary&) = delete;
  NvmlLibrary& operator=(const NvmlLibrary&) = delete;

  bool ok() const { return init_status_ == kNvmlSuccess; }
  bool loaded() const { return handle_ != nullptr; }
  /// The name asked of dlopen, and the file it loaded (the loader's link map) once loaded.
  const std::string& name() const { return name_; }
  const std::string& path() const { return path_; }
  /// dlerror's text when the library could not be loaded.
  const std::string& load_error() const { return load_error_; }
  /// The required functions the loaded library lacks (nvmlInit_v2 first), in the order asked.
  const std::vector<std::string>& missing() const { return missing_; }
  /// nvmlInit_v2's return; -1 when it was not called (not loaded, or functions missing).
  int init_status() const { return init_status_; }
  /// One line for a skip reason: what stopped NVML here ("" when ok()).
  std::string why() const;

  /// The function `name` as type Fn, or nullptr when the library lacks it (or is not loaded).
  template <typename Fn>
  Fn get(const char* name) const {
    Fn fn = nullptr;
    bind_symbol(handle_, name, fn);
    return fn;
  }

 private:
  void* handle_ = nullptr;
  std::string name_, path_, load_error_;
  std::vector<std::string> missing_;
  int init_status_ = -1;
};

}  // namespace gpucheck::kernels
