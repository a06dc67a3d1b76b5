#include "common/cuda_support.h"

#include "core/driver_requirement.h"

namespace gpucheck::kernels {

std::string cuda_error_text(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + " (" + std::to_string(static_cast<int>(e)) + "): " + cudaGetErrorString(e);
}

std::optional<std::string> cuda_unavailable_reason() {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-less error so later calls start clean
    std::string why = "cudaGetDeviceCount failed: " + cuda_error_text(e);
    if (e == cudaErrorInsufficientDriver) {  // which driver this (static) runtime needs, and what is here
      int driver = 0;
      if (cudaDriverGetVersion(&driver) != cudaSuccess) driver = 0;
      why += " (" + driver_requirement(CUDART_VERSION, driver) + ")";
    }
    return why;
  }
  if (count == 0) return "cudaGetDeviceCount reports 0 devices";
  return std::nullopt;
}

void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw CudaError(std::string(what) + ": " + cuda_error_text(e));
}

DeviceBuffer::DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
  if (bytes) cuda_check(cudaMalloc(&ptr_, bytes), "cudaMalloc");
}

DeviceBuffer::~DeviceBuffer() {
  if (ptr_) cudaFree(ptr_);
}

void DeviceBuffer::upload(const void* src, std::size_t bytes) {
  if (bytes) cuda_check(cudaMemcpy(ptr_, src, bytes, cudaMemcpyHostToDevice), "cudaMemcpy H2D");
}

void DeviceBuffer::download(void* dst, std::size_t bytes) const {
  if (bytes) cuda_check(cudaMemcpy(dst, ptr_, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy D2H");
}

}  // namespace gpucheck::kernels

namespace gpucheck::kernels {

DeviceBuffer to_device(const HostTensor& t) {
  DeviceBuffer d(t.bytes());
  d.upload(t.data(), t.bytes());
  return d;
}

void from_device(const DeviceBuffer& d, HostTensor& t) { d.download(t.data(), t.bytes()); }

std::string current_device_description() {
  int dev = 0;
  cudaDeviceProp p{};
  if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&p, dev) != cudaSuccess) return "unknown device";
  return std::string(p.name) + " (sm_" + std::to_string(p.major) + std::to_string(p.minor) + ", " +
         std::to_string(p.multiProcessorCount) + " SMs)";
}

bool require_gpu(Finding& r) {
  if (auto why = cuda_unavailable_reason()) {
    r.evidence["cudaGetDeviceCount"] = *why;
    r.status = Status::kSkip;
    r.summary = "no usable GPU: " + *why;
    return false;
  }
  r.evidence["device"] = current_device_description();
  return true;
}

}  // namespace gpucheck::kernels
