#pragma once
// The few CUDA runtime entry points device.runtime needs, resolved with dlopen/dlsym. The signatures and
// enum values used here are stable across CUDA 10..13.
#include <string>
#include <vector>

namespace gpucheck::probe {

struct Cudart {
  using GetInt = int (*)(int*);
  using DeviceAttr = int (*)(int*, int, int);
  using SetDevice = int (*)(int);
  using Malloc = int (*)(void**, std::size_t);
  using Free = int (*)(void*);
  using Memcpy = int (*)(void*, const void*, std::size_t, int);
  using MemGetInfo = int (*)(std::size_t*, std::size_t*);
  using ErrorText = const char* (*)(int);

  void* handle = nullptr;
  std::string path;                   // the file that was loaded
  std::vector<std::string> tried;     // what was attempted, with dlerror() text
  GetInt runtime_version = nullptr, driver_version = nullptr, device_count = nullptr;
  DeviceAttr device_attribute = nullptr;
  SetDevice set_device = nullptr;
  Malloc malloc = nullptr;
  Free free = nullptr;
  Memcpy memcpy = nullptr;
  MemGetInfo mem_get_info = nullptr;
  ErrorText error_name = nullptr, error_string = nullptr;

  /// "cudaErrorInsufficientDriver (35): CUDA driver version is insufficient for CUDA runtime version"
  std::string describe(int code) const;
};

/// Tries GPUCHECK_CUDART, then the loader's libcudart.so and versioned sonames, then toolkit lib dirs.
/// Returns false with `tried` filled when none loads or a required symbol is missing.
bool load_cudart(Cudart& out);

inline constexpr int kCudaSuccess = 0;
inline constexpr int kCudaErrorInsufficientDriver = 35;  // cudaErrorInsufficientDriver
inline constexpr int kAttrMultiProcessorCount = 16;
inline constexpr int kAttrComputeCapabilityMajor = 75;
inline constexpr int kAttrComputeCapabilityMinor = 76;
inline constexpr int kMemcpyHostToDevice = 1;
inline constexpr int kMemcpyDeviceToHost = 2;

}  // namespace gpucheck::probe
