#include "launch_gate.h"

#include <stdexcept>

#include "common/cuda_support.h"

namespace gpucheck::kernels {

namespace {

__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void gate_kernel(volatile int* flag, int* timed_out, unsigned long long limit_ns) {
  const unsigned long long start = global_ns();
  while (*flag == 0) {
    if (global_ns() - start > limit_ns) {
      *timed_out = 1;
      return;
    }
    __nanosleep(2000);
  }
}

}  // namespace

LaunchGate::LaunchGate() {
  void* p = nullptr;
  cuda_check(cudaHostAlloc(&p, 2 * sizeof(int), cudaHostAllocMapped), "cudaHostAlloc (gate flag)");
  flag_ = static_cast<volatile int*>(p);
  timed_out_ = static_cast<int*>(p) + 1;
  cuda_check(cudaEventCreate(&e0_), "cudaEventCreate");
  cuda_check(cudaEventCreate(&e1_), "cudaEventCreate");
}

LaunchGate::~LaunchGate() {
  cudaEventDestroy(e0_), cudaEventDestroy(e1_);
  cudaFreeHost(const_cast<int*>(flag_));
}

float LaunchGate::gated_ms(const std::function<std::string()>& enqueue, int reps, std::string& error) {
  *flag_ = 0, *timed_out_ = 0;
  int *dflag = nullptr, *dtimed = nullptr;
  cuda_check(cudaHostGetDevicePointer(reinterpret_cast<void**>(&dflag), const_cast<int*>(flag_), 0), "cudaHostGetDevicePointer");
  cuda_check(cudaHostGetDevicePointer(reinterpret_cast<void**>(&dtimed), timed_out_, 0), "cudaHostGetDevicePointer");
  gate_kernel<<<1, 1, 0, nullptr>>>(dflag, dtimed, 5000000000ull);
  cuda_check(cudaGetLastError(), "gate kernel");
  cuda_check(cudaEventRecord(e0_, nullptr), "cudaEventRecord");
  for (int i = 0; i < reps && error.empty(); ++i) error = enqueue();
  cuda_check(cudaEventRecord(e1_, nullptr), "cudaEventRecord");
  *flag_ = 1;
  cuda_check(cudaEventSynchronize(e1_), "cudaEventSynchronize");
  if (!error.empty()) return -1;
  if (*timed_out_) {
    error = "the launches did not stay queued behind the gate for 5 s (the launcher synchronises the device?)";
    return -1;
  }
  float ms = 0;
  cuda_check(cudaEventElapsedTime(&ms, e0_, e1_), "cudaEventElapsedTime");
  return ms / static_cast<float>(reps);
}

}  // namespace gpucheck::kernels
