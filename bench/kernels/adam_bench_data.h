#pragma once
// Realistic inputs for the Adam benchmarks: a random state window (make_adam_state: p ~ N(0,1), scaled
// gradients, non-zero moments) tiled over the device buffers. Zero-filled buffers would time the cheapest
// path (zeros convert and update trivially) and flatter the kernel.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>

#include "adam/adam_reference.h"
#include "common/cuda_support.h"

namespace gpucheck::kernels {

/// Copies host tensor `t` (window elements) over the n elements at `dst`, doubling on the device.
inline void tile_to_device(void* dst, const HostTensor& t, std::size_t n) {
  const std::size_t es = element_size(t.dtype()), w = std::min(n, t.size());
  if (w == 0) return;
  cuda_check(cudaMemcpy(dst, t.data(), w * es, cudaMemcpyHostToDevice), "cudaMemcpy (bench inputs)");
  for (std::size_t done = w; done < n;) {
    const std::size_t k = std::min(done, n - done);
    cuda_check(cudaMemcpy(static_cast<char*>(dst) + done * es, dst, k * es, cudaMemcpyDeviceToDevice), "cudaMemcpy D2D");
    done += k;
  }
}

/// Random inputs for n elements of `variant` (param, grad, m, v; param_h is output only).
inline void fill_adam_inputs(AdamVariant variant, std::size_t n, const AdamHyper& h, void* param, void* grad, void* m,
                             void* v) {
  const AdamState s = make_adam_state(variant, std::min<std::size_t>(n, std::size_t{1} << 20), 12345, h, false);
  tile_to_device(param, s.param, n);
  tile_to_device(grad, s.grad, n);
  tile_to_device(m, s.m, n);
  tile_to_device(v, s.v, n);
}

}  // namespace gpucheck::kernels
