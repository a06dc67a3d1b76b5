// The CUDA runtime API calls the project's probes make, implemented for hostsim: one device ("hostsim"),
// its memory a reserved arena with a redzone after every allocation (so an access past the end is outside
// every allocation), copies checked against allocation bounds, and a launch failure that is sticky like a
// GPU fault. Declarations come from the toolkit's cuda_runtime_api.h, so the signatures are CUDA's own.
#include <cuda_runtime_api.h>
#include <sys/mman.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "sim_state.h"

namespace gpucheck::hostsim {

std::size_t device_bytes() {
  static const std::size_t bytes = [] {
    std::size_t mib = 64;
    if (const char* s = std::getenv("HOSTSIM_DEVICE_MIB")) mib = std::strtoull(s, nullptr, 10);
    return (mib ? mib : 64) << 20;
  }();
  return bytes;
}

namespace internal {

namespace {
cudaError_t g_last = cudaSuccess;

cudaError_t fail(cudaError_t e) {
  if (g_last == cudaSuccess) g_last = e;
  return e;
}
}  // namespace

void set_last_error(cudaError_t e) { fail(e); }

DeviceHeap& heap() {
  static DeviceHeap h = [] {
    DeviceHeap x;
    // Room for the device's bytes plus a redzone per allocation; reserved only, pages appear when touched.
    x.reserved = device_bytes() * 2 + (std::size_t{64} << 20);
    void* m = mmap(nullptr, x.reserved, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) detail::trap("cannot reserve the simulated device memory");
    x.base = reinterpret_cast<std::uintptr_t>(m);
    x.granule_owner.assign(x.reserved / kGranule, 0);
    return x;
  }();
  return h;
}

namespace {

/// The allocation containing [p, p + n), as (id, ok); n == 0 accepts any live allocation's address.
bool device_range(const void* p, std::size_t n) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  return allocation_of(a, n ? n : 1) != 0;
}

bool is_device(const void* p) {
  const DeviceHeap& h = heap();
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  return a - h.base < h.reserved;
}

}  // namespace

}  // namespace internal
}  // namespace gpucheck::hostsim

using namespace gpucheck::hostsim::internal;

extern "C" {

cudaError_t CUDARTAPI cudaGetLastError(void) {
  if (g_sticky) return cudaErrorLaunchFailure;
  cudaError_t e = g_last;
  g_last = cudaSuccess;
  return e;
}

cudaError_t CUDARTAPI cudaPeekAtLastError(void) { return g_sticky ? cudaErrorLaunchFailure : g_last; }

cudaError_t CUDARTAPI cudaDeviceSynchronize(void) { return g_sticky ? cudaErrorLaunchFailure : cudaSuccess; }
cudaError_t CUDARTAPI cudaStreamSynchronize(cudaStream_t) { return cudaDeviceSynchronize(); }

cudaError_t CUDARTAPI cudaGetDeviceCount(int* count) {
  if (!count) return fail(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetDevice(int* device) {
  if (!device) return fail(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaSetDevice(int device) { return device == 0 ? cudaSuccess : fail(cudaErrorInvalidDevice); }

cudaError_t CUDARTAPI cudaDriverGetVersion(int* v) {
  if (!v) return fail(cudaErrorInvalidValue);
  *v = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaRuntimeGetVersion(int* v) { return cudaDriverGetVersion(v); }

cudaError_t CUDARTAPI cudaGetDeviceProperties(cudaDeviceProp* p, int device) {
  if (!p) return fail(cudaErrorInvalidValue);
  if (device != 0) return fail(cudaErrorInvalidDevice);
  std::memset(p, 0, sizeof *p);
  std::snprintf(p->name, sizeof p->name, "hostsim (CPU, 32-lane warps)");
  p->major = 9;
  p->minor = 0;
  p->multiProcessorCount = 1;
  p->totalGlobalMem = gpucheck::hostsim::device_bytes();
  p->warpSize = 32;
  p->maxThreadsPerBlock = 1024;
  p->sharedMemPerBlock = 48 * 1024;
  for (int i = 0; i < 16; ++i) p->uuid.bytes[i] = static_cast<char>(0x40 + i);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceGetPCIBusId(char* bus, int len, int device) {
  if (!bus || len <= 0) return fail(cudaErrorInvalidValue);
  if (device != 0) return fail(cudaErrorInvalidDevice);
  std::snprintf(bus, static_cast<std::size_t>(len), "0000:00:00.0");
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemGetInfo(size_t* free_b, size_t* total_b) {
  if (!free_b || !total_b) return fail(cudaErrorInvalidValue);
  *total_b = gpucheck::hostsim::device_bytes();
  *free_b = *total_b - heap().used;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMalloc(void** p, size_t bytes) {
  if (!p) return fail(cudaErrorInvalidValue);
  if (g_sticky) return cudaErrorLaunchFailure;
  DeviceHeap& h = heap();
  const std::size_t span = (bytes + kRedzone + kGranule - 1) / kGranule * kGranule;
  if (bytes == 0) {
    *p = nullptr;
    return cudaSuccess;
  }
  if (h.used + bytes > gpucheck::hostsim::device_bytes() || h.top + span > h.reserved) {
    *p = nullptr;
    return fail(cudaErrorMemoryAllocation);
  }
  Allocation a{h.base + h.top, bytes, true};
  h.allocations.push_back(a);
  const auto id = static_cast<std::uint32_t>(h.allocations.size());
  for (std::size_t g = h.top / kGranule; g < (h.top + bytes + kGranule - 1) / kGranule; ++g) h.granule_owner[g] = id;
  // Fresh device memory is not zero on a GPU either: a pattern, so a kernel reading what nobody wrote is seen.
  std::memset(reinterpret_cast<void*>(a.base), 0xcd, bytes);
  h.top += span;
  h.used += bytes;
  *p = reinterpret_cast<void*>(a.base);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaFree(void* p) {
  if (!p) return cudaSuccess;
  DeviceHeap& h = heap();
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  for (std::size_t i = 0; i < h.allocations.size(); ++i) {
    Allocation& al = h.allocations[i];
    if (al.live && al.base == a) {
      al.live = false;
      h.used -= al.bytes;
      for (std::size_t g = (al.base - h.base) / kGranule; g < (al.base - h.base + al.bytes + kGranule - 1) / kGranule; ++g)
        h.granule_owner[g] = 0;
      // Memory is reused once everything above it is free (buffers are mostly freed in reverse order).
      while (!h.allocations.empty() && !h.allocations.back().live) {
        h.top = h.allocations.back().base - h.base;
        h.allocations.pop_back();
      }
      return g_sticky ? cudaErrorLaunchFailure : cudaSuccess;
    }
  }
  return fail(cudaErrorInvalidValue);
}

cudaError_t CUDARTAPI cudaMemcpy(void* dst, const void* src, size_t n, enum cudaMemcpyKind kind) {
  if (g_sticky) return cudaErrorLaunchFailure;
  if (n == 0) return cudaSuccess;
  const bool dd = kind == cudaMemcpyDeviceToDevice || kind == cudaMemcpyDeviceToHost ||
                  (kind == cudaMemcpyDefault && is_device(src));
  const bool dt = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice ||
                  (kind == cudaMemcpyDefault && is_device(dst));
  if ((dd && !device_range(src, n)) || (dt && !device_range(dst, n)) || (!dd && is_device(src)) ||
      (!dt && is_device(dst)))
    return fail(cudaErrorInvalidValue);
  std::memmove(dst, src, n);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemcpyAsync(void* dst, const void* src, size_t n, enum cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpy(dst, src, n, kind);
}

cudaError_t CUDARTAPI cudaMemset(void* p, int value, size_t n) {
  if (g_sticky) return cudaErrorLaunchFailure;
  if (n == 0) return cudaSuccess;
  if (!device_range(p, n)) return fail(cudaErrorInvalidValue);
  std::memset(p, value, n);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemsetAsync(void* p, int value, size_t n, cudaStream_t) { return cudaMemset(p, value, n); }

const char* CUDARTAPI cudaGetErrorName(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    default: return "cudaErrorUnknown";
  }
}

const char* CUDARTAPI cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorLaunchFailure: return g_failure.empty() ? "unspecified launch failure" : g_failure.c_str();
    default: return "unknown error";
  }
}

}  // extern "C"
