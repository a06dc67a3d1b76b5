#pragma once
// Index arithmetic and per-thread work of the cross-entropy kernels (ce_cuda.cu), __host__ __device__ so
// host tests run them on windows of tensors with rows x vocab far beyond 2^32 elements. Only the block-wide
// reductions (warp shuffles) stay in the .cu. Every index is std::size_t: row·vocab + column never passes
// through a 32-bit type (BMTrain's int offsets overflow past 2^31 elements).
//
// A block handles one (row, chunk) pair at a time. Chunks are laid on the row's 16-byte grid: a row whose
// first element sits `phase` elements past a 16-byte boundary (phase < W, W = 16 / sizeof(element)) has
// chunk c covering columns [c·kCeChunk − phase, (c+1)·kCeChunk − phase) clipped to [0, vocab), so every
// chunk after the first starts aligned. Thread `tid` owns kCePerThread columns of its chunk: the W-element
// packs k·kCeBlock + tid (k < kCePerThread / W), so a warp's loads are consecutive 16-byte packs (fully
// coalesced). A whole pack inside the row is one 16-byte load/store; the few cut by the row's ends are
// element by element. The values stay in registers between the max and the exp-sum (one DRAM read).
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cross_entropy/ce_math.h"

#ifdef __CUDA_ARCH__
#define GK_CE_UNROLL _Pragma("unroll")
#else
#define GK_CE_UNROLL
#endif

namespace gpucheck::kernels {

inline constexpr std::size_t kCeChunk = 4096;   // columns per (row, chunk) block task
inline constexpr unsigned kCeBlock = 256;       // threads per block
inline constexpr unsigned kCePerThread = kCeChunk / kCeBlock;  // 16 columns per thread, in registers
inline constexpr unsigned kCeVecBytes = 16;     // one 128-bit access
inline constexpr unsigned kCeMaxGridY = 65535;  // grid.y limit: blocks stride over rows beyond it

/// Elements per 16-byte pack: 8 for fp16/bf16, 4 for fp32.
template <typename T>
GK_HD constexpr unsigned ce_pack_width() {
  return kCeVecBytes / sizeof(T);
}

/// Chunks (stats slots) per row for element type T: enough for any phase, the same for every row.
template <typename T>
GK_HD std::size_t ce_chunk_count(std::size_t vocab) {
  const std::size_t n = vocab + ce_pack_width<T>() - 1;
  return n / kCeChunk + (n % kCeChunk ? 1 : 0);
}

/// How one row is laid on the 16-byte grid.
struct CeRowPlan {
  std::size_t vocab = 0;
  unsigned phase = 0;     // elements from the previous 16-byte boundary to the row's first element
  bool vector = false;    // false when the row is not even element-aligned: every access is scalar
};

template <typename T>
GK_HD CeRowPlan ce_row_plan(const T* row, std::size_t vocab) {
  const auto a = reinterpret_cast<std::uintptr_t>(row);
  CeRowPlan p;
  p.vocab = vocab;
  p.vector = a % sizeof(T) == 0;
  p.phase = p.vector ? static_cast<unsigned>((a % kCeVecBytes) / sizeof(T)) : 0u;
  return p;
}

struct CeSpan {
  std::size_t begin = 0, end = 0;  // columns [begin, end) of one chunk (empty past the row's end)
};
GK_HD CeSpan ce_chunk_span(std::size_t chunk, const CeRowPlan& p) {
  const std::size_t lo = chunk * kCeChunk, hi = lo + kCeChunk;  // in phase-shifted columns
  CeSpan s;
  s.begin = lo > p.phase ? lo - p.phase : 0;
  s.end = hi > p.phase ? hi - p.phase : 0;
  if (s.end > p.vocab) s.end = p.vocab;
  if (s.begin > s.end) s.begin = s.end;
  return s;
}

/// First element of row `row` (row-major rows x vocab).
template <typename T>
GK_HD T* ce_row(T* base, std::size_t row, std::size_t vocab) {
  return base + row * vocab;
}

/// Slot of (row, chunk) in the forward pass's chunk statistics.
GK_HD std::size_t ce_stats_slot(std::size_t row, std::size_t chunks, std::size_t chunk) { return row * chunks + chunk; }

/// grid.y of a launch over `rows` rows; block y handles rows y, y + grid_y, ...
GK_HD unsigned ce_grid_rows(std::size_t rows) { return static_cast<unsigned>(rows < kCeMaxGridY ? rows : kCeMaxGridY); }

// ---- 16-byte packs --------------------------------------------------------------------------------------
#ifndef __CUDA_ARCH__
/// Host runs of the per-thread code count their 16-byte accesses (tests: none misaligned).
struct CeVectorAccessLog {
  std::size_t accesses = 0, misaligned = 0;
};
inline thread_local CeVectorAccessLog ce_vector_access_log;
#endif

template <typename T>
struct alignas(kCeVecBytes) CePack {
  T val[kCeVecBytes / sizeof(T)];
};

template <typename T>
GK_HD void ce_note_vector(const T* p) {
#ifndef __CUDA_ARCH__
  ++ce_vector_access_log.accesses;
  if (reinterpret_cast<std::uintptr_t>(p) % kCeVecBytes) ++ce_vector_access_log.misaligned;
#else
  (void)p;
#endif
}

template <typename T>
GK_HD CePack<T> ce_load_pack(const T* p) {
  ce_note_vector(p);
#ifdef __CUDA_ARCH__
  return *reinterpret_cast<const CePack<T>*>(p);
#else
  CePack<T> v;
  std::memcpy(&v, p, sizeof v);
  return v;
#endif
}

/// The pack as four 32-bit words (16-bit elements two to a word, low one first: the memory order).
template <typename T>
GK_HD std::uint32_t ce_pack_word(const CePack<T>& v, unsigned i) {
  if constexpr (sizeof(T) == 2)
    return static_cast<std::uint32_t>(v.val[2 * i]) | static_cast<std::uint32_t>(v.val[2 * i + 1]) << 16;
  else
    return float_bits(v.val[i]);
}

template <typename T>
GK_HD void ce_store_pack(T* p, const CePack<T>& v) {
  ce_note_vector(p);
#ifdef __CUDA_ARCH__
  // One explicit 16-byte store (sm_32_intrinsics' st.global.wb.v4, wb being the default policy): a plain
  // store of the pack, even typed uint4, let nvcc split one of a thread's packs into narrow stores.
  __stwb(reinterpret_cast<uint4*>(p), make_uint4(ce_pack_word(v, 0), ce_pack_word(v, 1), ce_pack_word(v, 2), ce_pack_word(v, 3)));
#else
  std::memcpy(p, &v, sizeof v);
#endif
}

/// Column of element j of pack k of thread tid in chunk `chunk`, in phase-shifted coordinates (subtract
/// the phase for the real column; below the phase it lies before the row).
template <typename T>
GK_HD std::size_t ce_shifted_column(std::size_t chunk, unsigned tid, unsigned k, unsigned j) {
  return chunk * kCeChunk + (static_cast<std::size_t>(k) * kCeBlock + tid) * ce_pack_width<T>() + j;
}

/// Whether pack k of this thread in (row, chunk) lies wholly inside the row (a 16-byte access).
template <typename T>
GK_HD bool ce_pack_whole(const CeRowPlan& p, std::size_t chunk, unsigned tid, unsigned k) {
  const std::size_t first = ce_shifted_column<T>(chunk, tid, k, 0);
  return p.vector && first >= p.phase && first - p.phase + ce_pack_width<T>() <= p.vocab;
}

/// Visits this thread's columns of (row, chunk): fn(slot, column) for each column inside the row, with
/// slot in [0, kCePerThread) its register; whole packs through pack_fn(slot0, column0) instead.
template <typename T, class Elem, class Pack>
GK_HD void ce_for_each(const CeRowPlan& p, std::size_t chunk, unsigned tid, Elem fn, Pack pack_fn) {
  constexpr unsigned W = ce_pack_width<T>();
  GK_CE_UNROLL for (unsigned k = 0; k < kCePerThread / W; ++k) {
    const std::size_t first = ce_shifted_column<T>(chunk, tid, k, 0);
    if (ce_pack_whole<T>(p, chunk, tid, k)) {
      pack_fn(k * W, first - p.phase);
    } else {
      GK_CE_UNROLL for (unsigned j = 0; j < W; ++j) {
        const std::size_t s = first + j;
        if (s >= p.phase && s - p.phase < p.vocab) fn(k * W + j, s - p.phase);
      }
    }
  }
}

/// Pass 1 and 2: this thread's logits of the chunk as float, in registers; columns outside the row read as
/// -inf (neutral for the clamped max, exp gives +0 in the sum, as if absent). Every whole pack's 16-byte
/// load is issued before any is used (kCePerThread / W loads in flight per thread, not one at a time);
/// packs cut by the row's ends then go element by element.
template <class S>
GK_HD void ce_thread_load(const typename S::T* row, const CeRowPlan& p, std::size_t chunk, unsigned tid,
                          float (&v)[kCePerThread]) {
  using T = typename S::T;
  constexpr unsigned W = ce_pack_width<T>(), K = kCePerThread / W;
  CePack<T> pk[K];
  bool whole[K];
  GK_CE_UNROLL for (unsigned k = 0; k < K; ++k) {
    whole[k] = ce_pack_whole<T>(p, chunk, tid, k);
    if (whole[k]) pk[k] = ce_load_pack(row + (ce_shifted_column<T>(chunk, tid, k, 0) - p.phase));
  }
  GK_CE_UNROLL for (unsigned k = 0; k < K; ++k) {
    if (whole[k]) {
      GK_CE_UNROLL for (unsigned j = 0; j < W; ++j) v[k * W + j] = S::load(pk[k].val[j]);
    } else {
      GK_CE_UNROLL for (unsigned j = 0; j < W; ++j) {
        const std::size_t s = ce_shifted_column<T>(chunk, tid, k, j);
        v[k * W + j] = s >= p.phase && s - p.phase < p.vocab ? S::load(row[s - p.phase]) : -INFINITY;
      }
    }
  }
}

/// Pass 1: this thread's max of its values, from the clamp floor. fmaxf ignores NaN, as BMTrain's max does.
GK_HD float ce_thread_max(const float (&v)[kCePerThread]) {
  float mx = kCeMaxFloor;
  GK_CE_UNROLL for (unsigned i = 0; i < kCePerThread; ++i) mx = gk_fmax(mx, v[i]);
  return mx;
}

/// Pass 1: this thread's sum of exp(x - chunk max), in register order.
GK_HD float ce_thread_sum_exp(const float (&v)[kCePerThread], float mx) {
  float s = 0.0f;
  GK_CE_UNROLL for (unsigned i = 0; i < kCePerThread; ++i) s += gk_exp(v[i] - mx);
  return s;
}

/// Writes this thread's columns of the chunk from f(value, column) (values as ce_thread_load gave them).
template <class S, class F>
GK_HD void ce_thread_store(typename S::T* row, const CeRowPlan& p, std::size_t chunk, unsigned tid,
                           const float (&v)[kCePerThread], F f) {
  using T = typename S::T;
  ce_for_each<T>(
      p, chunk, tid, [&](unsigned slot, std::size_t col) { row[col] = S::store(f(v[slot], col)); },
      [&](unsigned slot, std::size_t col) {
        CePack<T> pk;
        GK_CE_UNROLL for (unsigned j = 0; j < ce_pack_width<T>(); ++j) pk.val[j] = S::store(f(v[slot + j], col + j));
        ce_store_pack(row + col, pk);
      });
}

/// Pass 2: this thread's softmax outputs of the chunk (out may alias in: each thread reads its columns
/// into registers before writing them).
template <class S>
GK_HD void ce_thread_softmax(const typename S::T* in, typename S::T* out, const CeRowPlan& in_plan,
                             const CeRowPlan& out_plan, std::size_t chunk, unsigned tid, float mx, float inv_sum) {
  float v[kCePerThread];
  ce_thread_load<S>(in, in_plan, chunk, tid, v);
  if (in_plan.phase == out_plan.phase && in_plan.vector == out_plan.vector) {
    ce_thread_store<S>(out, out_plan, chunk, tid, v, [&](float x, std::size_t) { return ce_softmax_scaled<float>(x, mx, inv_sum); });
  } else {  // softmax buffer on another 16-byte phase than the logits: element by element, same columns
    ce_for_each<typename S::T>(
        in_plan, chunk, tid,
        [&](unsigned slot, std::size_t col) { out[col] = S::store(ce_softmax_scaled<float>(v[slot], mx, inv_sum)); },
        [&](unsigned slot, std::size_t col) {
          for (unsigned j = 0; j < ce_pack_width<typename S::T>(); ++j)
            out[col + j] = S::store(ce_softmax_scaled<float>(v[slot + j], mx, inv_sum));
        });
  }
}

/// Pass 2's merge of a row's chunk statistics, as (max, sum of exp(x - max)) pairs: merging two rescales
/// both sums to the larger max. The block merges in parallel: thread tid folds chunks tid, tid + 256, ...
/// (ce_thread_merge), then a warp-shuffle tree and the per-warp slots in a fixed order (ce_cuda.cu, and
/// ce_forward_host_float on the host), so every block of a row gets the same bits; 1e-10 is added once,
/// to the merged sum. Chunk maxima are clamped (>= -1e6), so (-1e6, 0) is the identity.
struct CeRowMerge {
  float max = kCeMaxFloor, sum = 0.0f;
};
GK_HD CeRowMerge ce_merge(const CeRowMerge& a, const CeRowMerge& b) {
  CeRowMerge m;
  m.max = gk_fmax(a.max, b.max);
  m.sum = a.sum * gk_exp(a.max - m.max) + b.sum * gk_exp(b.max - m.max);
  return m;
}
template <class Stat>
GK_HD CeRowMerge ce_thread_merge(const Stat* st, std::size_t chunks, unsigned tid) {
  CeRowMerge m;
  for (std::size_t k = tid; k < chunks; k += kCeBlock) m = ce_merge(m, CeRowMerge{st[k].x, st[k].y});
  return m;
}

/// Backward in place: this thread's gradients of the chunk.
template <class S>
GK_HD void ce_thread_backward(typename S::T* row, const CeRowPlan& p, std::size_t chunk, unsigned tid,
                              std::int32_t target, float grad_output) {
  float v[kCePerThread];
  ce_thread_load<S>(row, p, chunk, tid, v);
  ce_thread_store<S>(row, p, chunk, tid, v, [&](float sm, std::size_t col) {
    return ce_grad<float>(sm, target >= 0 && static_cast<std::size_t>(target) == col, grad_output);
  });
}

}  // namespace gpucheck::kernels
