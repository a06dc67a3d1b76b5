#pragma once
// Host helpers for the GPU probes and benchmarks: why the GPU cannot be used here (the exact CUDA error),
// RAII device buffers and error checking that throws with the CUDA error name.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>

namespace gpucheck::kernels {

/// "cudaErrorInsufficientDriver (35): CUDA driver version is insufficient for CUDA runtime version"
std::string cuda_error_text(cudaError_t e);

/// nullopt when at least one GPU is usable; otherwise the reason, from cudaGetDeviceCount.
std::optional<std::string> cuda_unavailable_reason();

struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
/// Throws CudaError("<what>: cudaErrorX (n): text") unless e == cudaSuccess.
void cuda_check(cudaError_t e, const char* what);

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(o.ptr_), bytes_(o.bytes_) { o.ptr_ = nullptr; o.bytes_ = 0; }
  void* get() const { return ptr_; }
  template <typename T>
  T* as() const { return static_cast<T*>(ptr_); }
  std::size_t bytes() const { return bytes_; }
  void upload(const void* src, std::size_t bytes);
  void download(void* dst, std::size_t bytes) const;

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace gpucheck::kernels

#include "common/host_tensor.h"
#include "core/finding.h"

namespace gpucheck::kernels {

/// Device copy of a host tensor, and back.
DeviceBuffer to_device(const HostTensor& t);
void from_device(const DeviceBuffer& d, HostTensor& t);
/// "NVIDIA H200 (sm_90, 132 SMs)" for the current device.
std::string current_device_description();

/// The common start of every GPU probe: without a usable GPU, marks `r` as skipped with the exact CUDA
/// error (evidence `cudaGetDeviceCount`) and returns false; otherwise records the device and returns true.
bool require_gpu(Finding& r);

}  // namespace gpucheck::kernels
