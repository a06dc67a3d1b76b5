#pragma once
// The per-thread work of the fused Adam kernels, __host__ __device__ so host tests run it for every chunk
// of an emulated grid. A GPU thread updates one chunk: kAdamVecWidth consecutive elements moved with
// 16-byte loads/stores when every buffer is 16-byte aligned at the chunk's first element, element by
// element otherwise. Both paths call the same per-element update (adam_math.h formulas + the storage
// conversions of the old one-element-per-thread kernel), so they produce the same bits.
//
// Alignment rule (adam_chunk_plan): BMTrain passes buffers at arbitrary element offsets into larger
// storages. When some head h < kAdamVecWidth makes param + h, param_h + h, grad + h, m + h and v + h all
// 16-byte aligned (true whenever every buffer starts at the same element offset from a 16-byte aligned
// storage, the usual case), elements [0, h) form chunk 0, processed element by element, and the chunks
// after it are aligned vector chunks; a final partial chunk is done element by element. When no such h
// exists (buffers at different phases), every chunk is one element: the scalar kernel, coalesced.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "adam/adam_math.h"
#include "common/half_bits.h"
#include "common/storage.h"

#ifdef __CUDA_ARCH__
#define GK_UNROLL _Pragma("unroll")
#else
#define GK_UNROLL
#endif

namespace gpucheck::kernels {

inline constexpr unsigned kAdamVecWidth = 8;   // elements per vector chunk: one 16-byte access per 16-bit buffer
inline constexpr unsigned kAdamVecAlign = 16;  // bytes of one 128-bit access
inline constexpr unsigned kAdamBlock = 256;    // threads per block
inline constexpr std::size_t kAdamMaxBlocks = 65536;  // grid cap: huge tensors loop over resident blocks

// ---- variants: buffer element types and the per-element update ----------------------------------------
// `update` is exactly the body of the one-element-per-thread kernels: load conversions, the adam_math.h
// element function in float, store conversions.

/// fp16 params (spec §1.1): grad fp16 (S-scaled), m fp16 (S-scaled), v fp32 (S-scaled), fp16 copy of p.
struct AdamFp16Variant {
  using Grad = std::uint16_t;
  using M = std::uint16_t;
  static constexpr bool kHalfCopy = true;
  GK_HD static void update(const AdamHyper& h, Grad g, float& p, M& m, float& v, std::uint16_t& p_half) {
    float mi = Fp16Storage::load(m);  // hardware conversions on the device (storage.h)
    adam_scaled_state_element<float>(h, Fp16Storage::load(g), p, mi, v);
    p_half = Fp16Storage::store(p);
    m = Fp16Storage::store(mi);
  }
};

/// bf16 params (spec §1.2): grad bf16 (S-scaled), unscaled fp32 m and v, bf16 copy of p (RNE).
struct AdamBf16Variant {
  using Grad = std::uint16_t;
  using M = float;
  static constexpr bool kHalfCopy = true;
  GK_HD static void update(const AdamHyper& h, Grad g, float& p, M& m, float& v, std::uint16_t& p_half) {
    adam_unscaled_state_element<float>(h, Bf16Storage::load(g), p, m, v);
    p_half = Bf16Storage::store(p);
  }
};

/// fp32 params, torch Adam semantics (spec §1.4): no 16-bit copy.
struct AdamFp32Variant {
  using Grad = float;
  using M = float;
  static constexpr bool kHalfCopy = false;
  GK_HD static void update(const AdamHyper& h, Grad g, float& p, M& m, float& v, std::uint16_t&) {
    adam_torch_l2_element<float>(h, g, p, m, v);
  }
};

/// The buffers of one launch. param_h is unused (may be null) when !V::kHalfCopy.
template <class V>
struct AdamBuffers {
  float* param = nullptr;
  std::uint16_t* param_h = nullptr;
  const typename V::Grad* grad = nullptr;
  typename V::M* m = nullptr;
  float* v = nullptr;
};

// ---- chunking: which elements chunk c covers -----------------------------------------------------------

struct AdamChunkPlan {
  std::size_t n = 0;
  std::size_t head = 0;  // elements [0, head) are chunk 0 when head > 0; vector chunks start at `head`
  unsigned width = 1;    // kAdamVecWidth: vector chunks after the head; 1: one element per chunk (scalar)
};

struct AdamChunkRange {
  std::size_t begin = 0, end = 0;  // [begin, end); empty past the last chunk
  bool vector = false;             // a full, aligned chunk: moved with 16-byte accesses
};

/// ceil(a / b) without forming a + b - 1 (no overflow for any a).
GK_HD std::size_t adam_ceil_div(std::size_t a, std::size_t b) { return a / b + (a % b ? 1 : 0); }

/// Chunks of a plan; the kernel's grid-stride loop runs chunk indices [0, count).
GK_HD std::size_t adam_chunk_count(const AdamChunkPlan& p) {
  if (p.n == 0) return 0;
  if (p.n <= p.head) return 1;
  return (p.head ? 1 : 0) + adam_ceil_div(p.n - p.head, p.width);
}

/// Element range of chunk `chunk`, 64-bit throughout: no product can exceed n + width.
GK_HD AdamChunkRange adam_chunk_range(std::size_t chunk, const AdamChunkPlan& p) {
  const std::size_t lead = p.head ? 1 : 0;
  if (chunk < lead) return {0, p.head < p.n ? p.head : p.n, false};
  const std::size_t k = chunk - lead;
  const std::size_t body = p.n > p.head ? p.n - p.head : 0;
  if (k >= adam_ceil_div(body, p.width)) return {p.n, p.n, false};
  const std::size_t begin = p.head + k * p.width;
  const std::size_t left = p.n - begin;
  const std::size_t len = left < p.width ? left : p.width;
  return {begin, begin + len, p.width == kAdamVecWidth && len == kAdamVecWidth};
}

/// Blocks of kAdamBlock threads for `chunks` chunks (one per thread), capped at kAdamMaxBlocks.
inline unsigned adam_grid_blocks(std::size_t chunks) {
  const std::size_t blocks = adam_ceil_div(chunks, kAdamBlock);
  return static_cast<unsigned>(blocks < kAdamMaxBlocks ? blocks : kAdamMaxBlocks);
}

/// The smallest h < kAdamVecWidth at which every (address, element size) pair is 16-byte aligned, or -1.
inline int adam_vector_head(const std::uintptr_t* addr, const std::size_t* elem_bytes, int count) {
  for (unsigned h = 0; h < kAdamVecWidth; ++h) {
    bool ok = true;
    for (int i = 0; i < count && ok; ++i) ok = (addr[i] + h * elem_bytes[i]) % kAdamVecAlign == 0;
    if (ok) return static_cast<int>(h);
  }
  return -1;
}

/// The plan the launchers use for these buffers (host side; see the alignment rule at the top).
template <class V>
AdamChunkPlan adam_chunk_plan(std::size_t n, const AdamBuffers<V>& b) {
  std::uintptr_t addr[5] = {reinterpret_cast<std::uintptr_t>(b.param), reinterpret_cast<std::uintptr_t>(b.grad),
                            reinterpret_cast<std::uintptr_t>(b.m), reinterpret_cast<std::uintptr_t>(b.v),
                            reinterpret_cast<std::uintptr_t>(b.param_h)};
  std::size_t size[5] = {sizeof(float), sizeof(typename V::Grad), sizeof(typename V::M), sizeof(float),
                         sizeof(std::uint16_t)};
  const int head = adam_vector_head(addr, size, V::kHalfCopy ? 5 : 4);
  AdamChunkPlan p;
  p.n = n;
  if (head >= 0) p.head = static_cast<std::size_t>(head), p.width = kAdamVecWidth;
  return p;
}

// ---- 16-byte vector moves ---------------------------------------------------------------------------

#ifndef __CUDA_ARCH__
/// Host runs only: every vector access is recorded, so tests can prove the aligned path ran and never
/// touched a misaligned address (on the GPU such an access faults).
struct AdamVectorAccessLog {
  std::size_t accesses = 0;
  std::size_t misaligned = 0;
};
inline thread_local AdamVectorAccessLog adam_vector_access_log;
#endif

template <typename T>
struct alignas(kAdamVecAlign) AdamPack16 {
  T val[kAdamVecAlign / sizeof(T)];
};

/// kAdamVecWidth elements of T in registers, moved as 16-byte packs (one for 16-bit types, two for float).
template <typename T>
struct AdamVecChunk {
  static constexpr unsigned kPer = kAdamVecAlign / sizeof(T);
  static constexpr unsigned kPacks = kAdamVecWidth / kPer;
  static_assert(kAdamVecWidth % kPer == 0, "a chunk is a whole number of 16-byte packs");
  AdamPack16<T> pack[kPacks];

  GK_HD T& operator[](unsigned i) { return pack[i / kPer].val[i % kPer]; }

  GK_HD void load(const T* src) {
    note(src);
#ifdef __CUDA_ARCH__
    GK_UNROLL for (unsigned k = 0; k < kPacks; ++k) pack[k] = reinterpret_cast<const AdamPack16<T>*>(src)[k];
#else
    std::memcpy(pack, src, sizeof pack);
#endif
  }
  GK_HD void store(T* dst) const {
    note(dst);
#ifdef __CUDA_ARCH__
    GK_UNROLL for (unsigned k = 0; k < kPacks; ++k) reinterpret_cast<AdamPack16<T>*>(dst)[k] = pack[k];
#else
    std::memcpy(dst, pack, sizeof pack);
#endif
  }

 private:
  GK_HD static void note(const void* p) {
#ifndef __CUDA_ARCH__
    ++adam_vector_access_log.accesses;
    if (reinterpret_cast<std::uintptr_t>(p) % kAdamVecAlign) ++adam_vector_access_log.misaligned;
#else
    (void)p;
#endif
  }
};

// ---- the per-thread work ----------------------------------------------------------------------------

/// Updates the elements of chunk `chunk` of `plan` in place. An index past the last chunk does nothing.
template <class V>
GK_HD void adam_update_chunk(std::size_t chunk, const AdamChunkPlan& plan, const AdamBuffers<V>& b,
                             const AdamHyper& h) {
  const AdamChunkRange r = adam_chunk_range(chunk, plan);
  if (r.vector) {
    AdamVecChunk<float> p, v;
    AdamVecChunk<typename V::Grad> g;
    AdamVecChunk<typename V::M> m;
    AdamVecChunk<std::uint16_t> ph;
    p.load(b.param + r.begin);
    g.load(b.grad + r.begin);
    m.load(b.m + r.begin);
    v.load(b.v + r.begin);
    GK_UNROLL for (unsigned k = 0; k < kAdamVecWidth; ++k) V::update(h, g[k], p[k], m[k], v[k], ph[k]);
    p.store(b.param + r.begin);
    if constexpr (V::kHalfCopy) ph.store(b.param_h + r.begin);
    m.store(b.m + r.begin);
    v.store(b.v + r.begin);
    return;
  }
  for (std::size_t i = r.begin; i < r.end; ++i) {
    float p = b.param[i], v = b.v[i];
    typename V::M m = b.m[i];
    std::uint16_t ph = 0;
    V::update(h, b.grad[i], p, m, v, ph);
    b.param[i] = p;
    if constexpr (V::kHalfCopy) b.param_h[i] = ph;
    b.m[i] = m;
    b.v[i] = v;
  }
}

}  // namespace gpucheck::kernels

#undef GK_UNROLL
