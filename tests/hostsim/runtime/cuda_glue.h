#pragma once
// Force-included (g++ -include) into every CUDA source compiled for hostsim: the CUDA C++ dialect the
// project's kernels use, mapped onto the hostsim runtime. The toolkit's own headers give the types
// (dim3, uint4, float2, make_float2, cudaError_t) and __half/__nv_bfloat16 with their host code paths.
// Not defined here on purpose: __CUDA_ARCH__ and __CUDACC__, so a kernel compiled for hostsim takes the
// same host branches that the host unit tests take; the launch goes through GK_LAUNCH (kernels/common/
// cuda_launch.h), the one seam between `<<<>>>` under nvcc and this runtime.
#define GPUCHECK_HOSTSIM 1

// Execution-space keywords: plain C++ here. Defined before the toolkit headers, which keep them.
#define __host__
#define __device__
#define __global__
#define __forceinline__ inline __attribute__((always_inline))
#define __launch_bounds__(...)
#define __constant__
#define __managed__
#define __grid_constant__
// Static shared memory: one static variable per kernel, reused by each block in turn (blocks run one at a
// time). The checker treats the program's writable static data as shared memory (device code has no other
// writable statics); GCC 12 drops a section attribute on statics of templates, or that would mark them.
#define __shared__ static __attribute__((aligned(16)))

#include <cuda_runtime_api.h>
#include <vector_functions.h>
#include <vector_types.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "hostsim.h"

// ---- device-branch mode ---------------------------------------------------------------------------------
// With GPUCHECK_HOSTSIM_DEVICE_BRANCHES, __CUDA_ARCH__ is defined (after the toolkit headers, whose host
// paths stay in use), so the kernels' `#ifdef __CUDA_ARCH__` branches are what runs: the 16-byte pack
// loads and stores as typed 16-byte accesses (each checked for 16-byte alignment, as the GPU faults on a
// misaligned one), the cuda_fp16/cuda_bf16 conversions of half_hw.h (NVIDIA's host implementations of
// the same intrinsics), __float_as_uint. Without it the kernels take the host branches the unit tests take.
#ifdef GPUCHECK_HOSTSIM_DEVICE_BRANCHES
#define __CUDA_ARCH__ 900
inline unsigned __float_as_uint(float f) {
  unsigned u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
inline float __uint_as_float(unsigned u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
// sm_32_intrinsics' explicit 16-byte store (st.global.wb.v4): one typed 16-byte store, checked like the rest.
inline void __stwb(uint4* p, uint4 v) { *p = v; }
inline void __stwb(float4* p, float4 v) { *p = v; }
#endif

// ---- built-in variables ---------------------------------------------------------------------------------
#define threadIdx (::gpucheck::hostsim::detail::current("threadIdx").thread_idx)
#define blockIdx (::gpucheck::hostsim::detail::current("blockIdx").block_idx)
#define blockDim (::gpucheck::hostsim::detail::current("blockDim").block_dim)
#define gridDim (::gpucheck::hostsim::detail::current("gridDim").grid_dim)
inline constexpr int warpSize = 32;

/// Dynamic shared memory: `GK_DYNAMIC_SHARED(float, buf);` stands for `extern __shared__ float buf[];`
/// (kernels/common/cuda_launch.h), the launch's third <<<>>> argument in bytes, 16-byte aligned.
#define GK_HOSTSIM_DYNAMIC_SHARED(type, name) \
  type* const name = static_cast<type*>(::gpucheck::hostsim::detail::dynamic_shared())

// ---- warp collectives -----------------------------------------------------------------------------------
namespace gpucheck::hostsim::detail {
template <class T>
T warp_value(WarpOp op, unsigned mask, T var, unsigned arg, int width) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "shuffles move at most 8 bytes");
  std::uint64_t bits = 0;
  std::memcpy(&bits, static_cast<const void*>(&var), sizeof var);
  bits = warp_collective(op, mask, bits, arg, width);
  T out;
  std::memcpy(static_cast<void*>(&out), &bits, sizeof out);
  return out;
}
}  // namespace gpucheck::hostsim::detail

template <class T>
T __shfl_sync(unsigned mask, T var, int src_lane, int width = warpSize) {
  return ::gpucheck::hostsim::detail::warp_value(::gpucheck::hostsim::detail::WarpOp::kShfl, mask, var,
                                                 static_cast<unsigned>(src_lane), width);
}
template <class T>
T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize) {
  return ::gpucheck::hostsim::detail::warp_value(::gpucheck::hostsim::detail::WarpOp::kShflUp, mask, var, delta, width);
}
template <class T>
T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize) {
  return ::gpucheck::hostsim::detail::warp_value(::gpucheck::hostsim::detail::WarpOp::kShflDown, mask, var, delta, width);
}
template <class T>
T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = warpSize) {
  return ::gpucheck::hostsim::detail::warp_value(::gpucheck::hostsim::detail::WarpOp::kShflXor, mask, var,
                                                 static_cast<unsigned>(lane_mask), width);
}
inline unsigned __ballot_sync(unsigned mask, int predicate) {
  return static_cast<unsigned>(::gpucheck::hostsim::detail::warp_collective(
      ::gpucheck::hostsim::detail::WarpOp::kBallot, mask, predicate != 0, 0, warpSize));
}
inline int __any_sync(unsigned mask, int predicate) {
  return static_cast<int>(::gpucheck::hostsim::detail::warp_collective(
      ::gpucheck::hostsim::detail::WarpOp::kAny, mask, predicate != 0, 0, warpSize));
}
inline int __all_sync(unsigned mask, int predicate) {
  return static_cast<int>(::gpucheck::hostsim::detail::warp_collective(
      ::gpucheck::hostsim::detail::WarpOp::kAll, mask, predicate != 0, 0, warpSize));
}
inline void __syncwarp(unsigned mask = 0xffffffffu) {
  ::gpucheck::hostsim::detail::warp_collective(::gpucheck::hostsim::detail::WarpOp::kSyncwarp, mask, 0, 0, warpSize);
}

// ---- block barriers -------------------------------------------------------------------------------------
inline void __syncthreads() {
  ::gpucheck::hostsim::detail::block_barrier(::gpucheck::hostsim::detail::BarrierOp::kSync, 0);
}
inline int __syncthreads_or(int p) {
  return ::gpucheck::hostsim::detail::block_barrier(::gpucheck::hostsim::detail::BarrierOp::kOr, p);
}
inline int __syncthreads_and(int p) {
  return ::gpucheck::hostsim::detail::block_barrier(::gpucheck::hostsim::detail::BarrierOp::kAnd, p);
}
inline int __syncthreads_count(int p) {
  return ::gpucheck::hostsim::detail::block_barrier(::gpucheck::hostsim::detail::BarrierOp::kCount, p);
}
inline void __threadfence() {}
inline void __threadfence_block() {}
inline void __trap() { ::gpucheck::hostsim::detail::trap("__trap()"); }

// ---- atomics: one fiber runs at a time and never switches inside these, so a read-modify-write is atomic --
namespace gpucheck::hostsim::detail {
// Not instrumented: the checker sees this access as atomic (note_atomic), not as a plain load and store.
template <class T, class F>
__attribute__((no_sanitize_thread)) T atomic_rmw(T* address, F f) {
  note_atomic(address, sizeof(T));
  T old;
  std::memcpy(static_cast<void*>(&old), address, sizeof old);
  const T now = f(old);
  std::memcpy(static_cast<void*>(address), &now, sizeof now);
  return old;
}
}  // namespace gpucheck::hostsim::detail

#define GK_HOSTSIM_ATOMIC(name, expr)                                                            \
  template <class T>                                                                             \
  T name(T* address, T val) {                                                                    \
    return ::gpucheck::hostsim::detail::atomic_rmw(address, [&](T old) -> T { return (expr); }); \
  }
GK_HOSTSIM_ATOMIC(atomicAdd, static_cast<T>(old + val))
GK_HOSTSIM_ATOMIC(atomicSub, static_cast<T>(old - val))
GK_HOSTSIM_ATOMIC(atomicExch, val)
GK_HOSTSIM_ATOMIC(atomicMin, val < old ? val : old)
GK_HOSTSIM_ATOMIC(atomicMax, val > old ? val : old)
GK_HOSTSIM_ATOMIC(atomicAnd, static_cast<T>(old & val))
GK_HOSTSIM_ATOMIC(atomicOr, static_cast<T>(old | val))
GK_HOSTSIM_ATOMIC(atomicXor, static_cast<T>(old ^ val))
#undef GK_HOSTSIM_ATOMIC
inline unsigned atomicInc(unsigned* address, unsigned val) {
  return ::gpucheck::hostsim::detail::atomic_rmw(address, [&](unsigned old) { return old >= val ? 0u : old + 1; });
}
inline unsigned atomicDec(unsigned* address, unsigned val) {
  return ::gpucheck::hostsim::detail::atomic_rmw(
      address, [&](unsigned old) { return (old == 0 || old > val) ? val : old - 1; });
}
template <class T>
T atomicCAS(T* address, T compare, T val) {
  return ::gpucheck::hostsim::detail::atomic_rmw(address, [&](T old) { return old == compare ? val : old; });
}

// ---- integer intrinsics ---------------------------------------------------------------------------------
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
inline unsigned __brev(unsigned x) {
  unsigned r = 0;
  for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}
