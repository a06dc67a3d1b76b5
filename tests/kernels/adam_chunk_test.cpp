// The vectorised Adam kernels' per-thread code (adam_chunk.h), run on the host for every chunk index of an
// emulated grid, against the one-element-per-thread kernel bodies written out here: bit-identical outputs
// for odd sizes, n = 0, buffers offset by 1/2/3 elements (vector path after a scalar head), buffers at
// different phases (scalar path), random and adversarial values; the chunk -> element range arithmetic
// for n beyond 2^32; and the chunk code itself on windows of a 2^33-element tensor that is never allocated.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "adam/adam_chunk.h"
#include "adam/adam_reference.h"

using namespace gpucheck::kernels;

namespace {

// ---- the scalar kernels as they were (one element per thread), the oracle ---------------------------

void scalar_kernel(std::size_t begin, std::size_t end, const AdamBuffers<AdamFp16Variant>& b, const AdamHyper& h) {
  for (std::size_t i = begin; i < end; ++i) {
    float p = b.param[i], mi = fp16_to_float(b.m[i]), vi = b.v[i];
    adam_scaled_state_element<float>(h, fp16_to_float(b.grad[i]), p, mi, vi);
    b.param[i] = p;
    b.param_h[i] = fp16_from_float(p);
    b.m[i] = fp16_from_float(mi);
    b.v[i] = vi;
  }
}
void scalar_kernel(std::size_t begin, std::size_t end, const AdamBuffers<AdamBf16Variant>& b, const AdamHyper& h) {
  for (std::size_t i = begin; i < end; ++i) {
    float p = b.param[i], mi = b.m[i], vi = b.v[i];
    adam_unscaled_state_element<float>(h, bf16_to_float(b.grad[i]), p, mi, vi);
    b.param[i] = p;
    b.param_h[i] = bf16_from_float(p);
    b.m[i] = mi;
    b.v[i] = vi;
  }
}
void scalar_kernel(std::size_t begin, std::size_t end, const AdamBuffers<AdamFp32Variant>& b, const AdamHyper& h) {
  for (std::size_t i = begin; i < end; ++i) {
    float p = b.param[i], mi = b.m[i], vi = b.v[i];
    adam_torch_l2_element<float>(h, b.grad[i], p, mi, vi);
    b.param[i] = p;
    b.m[i] = mi;
    b.v[i] = vi;
  }
}

AdamVariant reference_variant(AdamFp16Variant) { return AdamVariant::kFp16; }
AdamVariant reference_variant(AdamBf16Variant) { return AdamVariant::kBf16; }
AdamVariant reference_variant(AdamFp32Variant) { return AdamVariant::kFp32; }

// ---- buffers at chosen element offsets from a 64-byte boundary ---------------------------------------

struct alignas(64) Line {
  unsigned char b[64];
};

template <typename T>
class Placed {
 public:
  Placed(std::size_t count, std::size_t offset)
      : store_((count + offset) * sizeof(T) / sizeof(Line) + 2), ptr_(reinterpret_cast<T*>(store_.data()) + offset) {}
  T* get() const { return ptr_; }

 private:
  std::vector<Line> store_;
  T* ptr_;
};

struct Offsets {
  std::size_t param = 0, param_h = 0, grad = 0, m = 0, v = 0;
  static Offsets all(std::size_t k) { return {k, k, k, k, k}; }
};

/// One set of kernel buffers filled with make_adam_state's values (random, or adversarial: ±inf/NaN
/// gradients, fp16 maxima, subnormals, p = 0, p = 1e30). `origin` shifts the element index: buffers()
/// returns pointers such that element `origin` is the first stored one (to address windows of huge n).
template <class V>
struct Set {
  using Grad = typename V::Grad;
  using M = typename V::M;
  std::size_t len;
  Placed<float> param, v;
  Placed<std::uint16_t> param_h;
  Placed<Grad> grad;
  Placed<M> m;

  Set(std::size_t n, const Offsets& o, std::uint64_t seed, bool adversarial)
      : len(n), param(n, o.param), v(n, o.v), param_h(n, o.param_h), grad(n, o.grad), m(n, o.m) {
    AdamHyper h = adam_with_step(AdamHyper{1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 1024.0f}, 7);
    AdamState s = make_adam_state(reference_variant(V{}), n, seed, h, adversarial);
    if (n == 0) return;
    std::memcpy(param.get(), s.param.f32(), n * sizeof(float));
    std::memcpy(v.get(), s.v.f32(), n * sizeof(float));
    std::memcpy(grad.get(), s.grad.data(), n * sizeof(Grad));
    std::memcpy(m.get(), s.m.data(), n * sizeof(M));
    for (std::size_t i = 0; i < n; ++i) param_h.get()[i] = 0xdead;  // output only: must be overwritten
  }

  template <typename T>
  static T* shifted(T* p, std::size_t origin) {  // p - origin by address: never dereferenced below p
    return reinterpret_cast<T*>(reinterpret_cast<std::uintptr_t>(p) - origin * sizeof(T));
  }
  AdamBuffers<V> buffers(std::size_t origin = 0) const {
    return {shifted(param.get(), origin), shifted(param_h.get(), origin), shifted(grad.get(), origin),
            shifted(m.get(), origin), shifted(v.get(), origin)};
  }

  /// Index of the first element in [begin, end) (window-relative) whose bits differ, or -1.
  long first_difference(const Set& o, std::size_t begin, std::size_t end) const {
    for (std::size_t i = begin; i < end; ++i) {
      bool same = std::memcmp(param.get() + i, o.param.get() + i, sizeof(float)) == 0 &&
                  std::memcmp(v.get() + i, o.v.get() + i, sizeof(float)) == 0 &&
                  std::memcmp(grad.get() + i, o.grad.get() + i, sizeof(Grad)) == 0 &&
                  std::memcmp(m.get() + i, o.m.get() + i, sizeof(M)) == 0 &&
                  (!V::kHalfCopy || param_h.get()[i] == o.param_h.get()[i]);
      if (!same) return static_cast<long>(i);
    }
    return -1;
  }
};

const AdamHyper kStep = adam_with_step(AdamHyper{1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 1024.0f}, 7);

/// The launcher's grid, emulated: `threads` threads stride over the chunks in the kernel's order, then a
/// few indices past the end (threads of the last block) must change nothing.
template <class V>
void run_grid(const AdamChunkPlan& plan, const AdamBuffers<V>& b, std::size_t threads) {
  const std::size_t chunks = adam_chunk_count(plan);
  for (std::size_t t = 0; t < threads; ++t)
    for (std::size_t c = t; c < chunks; c += threads) adam_update_chunk<V>(c, plan, b, kStep);
  for (std::size_t c = chunks; c < chunks + 3; ++c) adam_update_chunk<V>(c, plan, b, kStep);
}

std::size_t expected_head(std::size_t k, bool only_floats) {
  const std::size_t per = only_floats ? 4 : 8;  // elements per 16 bytes of the narrowest buffer
  return (per - k % per) % per;
}

template <class V>
class AdamChunkTest : public ::testing::Test {};
using Variants = ::testing::Types<AdamFp16Variant, AdamBf16Variant, AdamFp32Variant>;
TYPED_TEST_SUITE(AdamChunkTest, Variants);

}  // namespace

// Same offset k into every buffer (what BMTrain's views into one storage give): a scalar head of
// expected_head(k) elements, aligned 16-byte chunks, a scalar tail; bits equal to the scalar kernel.
TYPED_TEST(AdamChunkTest, SameOffsetUsesVectorChunksAndMatchesScalarKernelBitForBit) {
  using V = TypeParam;
  const bool only_floats = !V::kHalfCopy;
  for (bool adversarial : {false, true})
    for (std::size_t k : {0u, 1u, 2u, 3u, 5u})
      for (std::size_t n : {0u, 1u, 3u, 7u, 8u, 9u, 15u, 16u, 17u, 23u, 1000u, 4099u, 65539u}) {
        SCOPED_TRACE(::testing::Message() << "n=" << n << " offset=" << k << " adversarial=" << adversarial);
        Set<V> got(n, Offsets::all(k), n + k, adversarial), want(n, Offsets::all(k), n + k, adversarial);
        const AdamChunkPlan plan = adam_chunk_plan(n, got.buffers());
        ASSERT_EQ(plan.width, kAdamVecWidth);
        ASSERT_EQ(plan.head, expected_head(k, only_floats));
        adam_vector_access_log = {};
        run_grid(plan, got.buffers(), 37);
        scalar_kernel(0, n, want.buffers(), kStep);
        EXPECT_EQ(got.first_difference(want, 0, n), -1);
        EXPECT_EQ(adam_vector_access_log.misaligned, 0u);
        const bool has_full_chunk = n >= plan.head + kAdamVecWidth;
        EXPECT_EQ(adam_vector_access_log.accesses > 0, has_full_chunk);
      }
}

// Buffers at different phases (grad one element further than the others): no head aligns all of them,
// so every chunk is one element and the result is the scalar kernel's.
TYPED_TEST(AdamChunkTest, BuffersOutOfPhaseFallBackToScalarChunks) {
  using V = TypeParam;
  for (std::size_t n : {1u, 9u, 1000u, 4099u}) {
    SCOPED_TRACE(::testing::Message() << "n=" << n);
    Offsets o = Offsets::all(0);
    o.grad = 1;
    Set<V> got(n, o, 3, true), want(n, o, 3, true);
    const AdamChunkPlan plan = adam_chunk_plan(n, got.buffers());
    EXPECT_EQ(plan.width, 1u);
    EXPECT_EQ(plan.head, 0u);
    EXPECT_EQ(adam_chunk_count(plan), n);
    adam_vector_access_log = {};
    run_grid(plan, got.buffers(), 5);
    scalar_kernel(0, n, want.buffers(), kStep);
    EXPECT_EQ(got.first_difference(want, 0, n), -1);
    EXPECT_EQ(adam_vector_access_log.accesses, 0u);
  }
}

// Chunks are independent: any order of chunk indices gives the same bits (no thread reads another's
// elements), here all chunks in reverse.
TYPED_TEST(AdamChunkTest, ChunkOrderDoesNotMatter) {
  using V = TypeParam;
  const std::size_t n = 1003;
  Set<V> got(n, Offsets::all(3), 11, true), want(n, Offsets::all(3), 11, true);
  const AdamChunkPlan plan = adam_chunk_plan(n, got.buffers());
  for (std::size_t c = adam_chunk_count(plan); c-- > 0;) adam_update_chunk<V>(c, plan, got.buffers(), kStep);
  scalar_kernel(0, n, want.buffers(), kStep);
  EXPECT_EQ(got.first_difference(want, 0, n), -1);
}

// The chunk code on windows of an n = 2^33 + 13 element tensor: buffer pointers are shifted so that only
// the window exists; chunks straddling element 2^32 and the last chunks (partial tail) must update exactly
// their elements, bit-identical to the scalar kernel, and leave the rest of the window untouched. A
// 32-bit index anywhere in the chunk code would address the wrong elements here.
TYPED_TEST(AdamChunkTest, WindowsOfAHugeTensorAddressTheRightElements) {
  using V = TypeParam;
  const std::size_t n = (std::size_t{1} << 33) + 13;
  struct Window {
    std::size_t first, len;
  };
  for (std::size_t k : {0u, 3u})
    for (Window w : {Window{(std::size_t{1} << 32) - 64, 160}, Window{(std::size_t{1} << 31) - 40, 96},
                     Window{n - 61, 61}})
      for (bool scalar : {false, true}) {
        SCOPED_TRACE(::testing::Message() << "window at " << w.first << " offset " << k << " scalar " << scalar);
        // The window's first element sits k elements past a 64-byte boundary; so does element 0 of the
        // shifted base when `first` is a multiple of 16, which it is rounded to here.
        const std::size_t first = w.first / 16 * 16, len = w.len + (w.first - first);
        Set<V> got(len, Offsets::all(k), 5, true), want(len, Offsets::all(k), 5, true), before(len, Offsets::all(k), 5, true);
        AdamChunkPlan plan = adam_chunk_plan(n, got.buffers(first));
        ASSERT_EQ(plan.width, kAdamVecWidth);
        if (scalar) plan = AdamChunkPlan{n, 0, 1};
        // Every chunk lying wholly inside the window.
        std::size_t lo = SIZE_MAX, hi = 0, vector_chunks = 0;
        const std::size_t c0 = plan.width == 1 ? first : (first - plan.head) / plan.width;  // at or before the window
        for (std::size_t c = c0; c < c0 + len + 2; ++c) {
          AdamChunkRange r = adam_chunk_range(c, plan);
          if (r.begin < first || r.end > first + len || r.begin == r.end) continue;
          adam_update_chunk<V>(c, plan, got.buffers(first), kStep);
          lo = std::min(lo, r.begin), hi = std::max(hi, r.end), vector_chunks += r.vector;
        }
        ASSERT_LT(lo, hi);
        EXPECT_EQ(vector_chunks > 0, !scalar);
        if (w.first == n - 61) {
          EXPECT_EQ(hi, n);  // the tail chunk ran
        }
        scalar_kernel(lo - first, hi - first, want.buffers(), kStep);
        EXPECT_EQ(got.first_difference(want, lo - first, hi - first), -1);
        EXPECT_EQ(got.first_difference(before, 0, lo - first), -1);
        EXPECT_EQ(got.first_difference(before, hi - first, len), -1);
      }
}

// ---- chunk -> element range arithmetic -------------------------------------------------------------

// For every head and both widths, chunks [0, count) tile [0, n) in order without gaps or overlaps; vector
// chunks are full and start at head + a multiple of the width; indices past the end are empty.
TEST(AdamChunkRangeTest, ChunksTileTheTensorExactly) {
  for (unsigned width : {1u, kAdamVecWidth})
    for (std::size_t head = 0; head < (width == 1 ? 1u : kAdamVecWidth); ++head)
      for (std::size_t n = 0; n < 60; ++n) {
        SCOPED_TRACE(::testing::Message() << "n=" << n << " head=" << head << " width=" << width);
        AdamChunkPlan p{n, head, width};
        const std::size_t count = adam_chunk_count(p);
        std::size_t next = 0;
        for (std::size_t c = 0; c < count; ++c) {
          AdamChunkRange r = adam_chunk_range(c, p);
          ASSERT_EQ(r.begin, next);
          ASSERT_LT(r.begin, r.end);
          ASSERT_LE(r.end - r.begin, width == 1 ? 1u : std::max<std::size_t>(head, width));
          if (r.vector) {
            EXPECT_EQ(r.end - r.begin, kAdamVecWidth);
            EXPECT_EQ((r.begin - head) % kAdamVecWidth, 0u);
            EXPECT_GE(r.begin, head);
          }
          next = r.end;
        }
        EXPECT_EQ(next, n);
        for (std::size_t c = count; c < count + 3; ++c) {
          AdamChunkRange r = adam_chunk_range(c, p);
          EXPECT_EQ(r.begin, r.end);
          EXPECT_FALSE(r.vector);
        }
      }
}

// n beyond 2^31 and 2^32 (never allocated): counts, the chunks around the element indices 2^31 and 2^32
// and the last chunk, all in 64-bit arithmetic; the grid stays capped.
TEST(AdamChunkRangeTest, HugeSizesUse64BitIndices) {
  for (std::size_t n : {(std::size_t{1} << 31) + 17, (std::size_t{1} << 32) - 1, (std::size_t{1} << 32) + 9,
                        (std::size_t{1} << 33) + 13, (std::size_t{1} << 40) + 3})
    for (std::size_t head : {0u, 5u}) {
      SCOPED_TRACE(::testing::Message() << "n=" << n << " head=" << head);
      AdamChunkPlan p{n, head, kAdamVecWidth};
      const std::size_t body = n - head, lead = head ? 1 : 0;
      const std::size_t count = adam_chunk_count(p);
      EXPECT_EQ(count, lead + (body + kAdamVecWidth - 1) / kAdamVecWidth);
      for (std::size_t element : {std::size_t{1} << 31, std::size_t{1} << 32, n - 1}) {
        if (element >= n) continue;
        const std::size_t c = lead + (element - head) / kAdamVecWidth;  // the chunk holding `element`
        AdamChunkRange r = adam_chunk_range(c, p), next = adam_chunk_range(c + 1, p);
        EXPECT_LE(r.begin, element);
        EXPECT_LT(element, r.end);
        EXPECT_EQ(r.begin, head + (c - lead) * kAdamVecWidth);
        EXPECT_EQ(next.begin, r.end);  // contiguous (past the last chunk: empty at n)
      }
      AdamChunkRange last = adam_chunk_range(count - 1, p);
      EXPECT_EQ(last.end, n);
      EXPECT_EQ(last.vector, (n - head) % kAdamVecWidth == 0);
      EXPECT_EQ(adam_chunk_range(count, p).begin, n);
      EXPECT_EQ(adam_grid_blocks(count), kAdamMaxBlocks);
      // Scalar plan: one chunk per element.
      AdamChunkPlan s{n, 0, 1};
      EXPECT_EQ(adam_chunk_count(s), n);
      AdamChunkRange r = adam_chunk_range(n - 1, s);
      EXPECT_EQ(r.begin, n - 1);
      EXPECT_EQ(r.end, n);
    }
  EXPECT_EQ(adam_grid_blocks(0), 0u);
  EXPECT_EQ(adam_grid_blocks(1), 1u);
  EXPECT_EQ(adam_grid_blocks(kAdamBlock + 1), 2u);
}

// The alignment rule: the smallest head that aligns every buffer, or none.
TEST(AdamChunkRangeTest, VectorHeadAlignsEveryBuffer) {
  const std::uintptr_t base = 0x7f0000001000;
  std::size_t fp16_sizes[5] = {4, 2, 2, 4, 2};
  auto head = [&](std::uintptr_t p, std::uintptr_t g, std::uintptr_t m, std::uintptr_t v, std::uintptr_t ph) {
    std::uintptr_t a[5] = {p, g, m, v, ph};
    return adam_vector_head(a, fp16_sizes, 5);
  };
  EXPECT_EQ(head(base, base, base, base, base), 0);
  // k elements into each storage: floats move 4k bytes, halves 2k; head = (8 - k % 8) % 8.
  for (std::uintptr_t k = 0; k < 20; ++k)
    EXPECT_EQ(head(base + 4 * k, base + 2 * k, base + 2 * k, base + 4 * k, base + 2 * k), int((8 - k % 8) % 8)) << k;
  EXPECT_EQ(head(base, base + 2, base, base, base), -1);      // grad one element out of phase
  EXPECT_EQ(head(base + 1, base, base, base, base), -1);      // param not even float-aligned
  EXPECT_EQ(head(base, base, base, base, base + 1), -1);      // param_h at an odd byte
  std::uintptr_t f[4] = {base + 8, base + 8, base + 8, base + 8};
  std::size_t fp32_sizes[4] = {4, 4, 4, 4};
  EXPECT_EQ(adam_vector_head(f, fp32_sizes, 4), 2);
}
