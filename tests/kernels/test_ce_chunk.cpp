// The cross-entropy kernels' index arithmetic and per-thread loops (ce_chunk.h), run on the host: chunk
// spans tile every vocabulary; on rows of a rows x vocab tensor with far more than 2^32 elements (only the
// row under test exists; the base pointer is shifted so row r sits at r·vocab), the kernel's 256 threads
// together visit each column of each chunk exactly once and read/write the right addresses, bit-identical
// to the element math applied with row-local indices.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "common/storage.h"
#include "cross_entropy/ce_chunk.h"

using namespace gpucheck::kernels;

namespace {

template <typename T>
T* shifted(T* p, std::size_t elements_before) {  // p - elements_before by address; only p.. is dereferenced
  return reinterpret_cast<T*>(reinterpret_cast<std::uintptr_t>(p) - elements_before * sizeof(T));
}

template <class S>
std::vector<typename S::T> random_row(std::size_t vocab, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> nd(0.0f, 3.0f);
  std::vector<typename S::T> row(vocab);
  for (auto& v : row) v = S::store(nd(rng));
  return row;
}

template <class S>
class CeChunkTest : public ::testing::Test {};
using Storages = ::testing::Types<Fp16Storage, Bf16Storage, Fp32Storage>;
TYPED_TEST_SUITE(CeChunkTest, Storages);

bool same_bits(const void* a, const void* b, std::size_t bytes) { return std::memcmp(a, b, bytes) == 0; }

}  // namespace

TEST(CeChunkIndex, SpansTileEveryVocabulary) {
  for (std::size_t vocab : {1u, 10u, 999u, 4095u, 4096u, 4097u, 86583u, 128256u, 256000u}) {
    SCOPED_TRACE(vocab);
    const std::size_t chunks = ce_chunk_count(vocab);
    EXPECT_EQ(chunks, (vocab + kCeChunk - 1) / kCeChunk);
    std::size_t next = 0;
    for (std::size_t c = 0; c < chunks; ++c) {
      CeSpan s = ce_chunk_span(c, vocab);
      ASSERT_EQ(s.begin, next);
      ASSERT_LT(s.begin, s.end);
      ASSERT_LE(s.end - s.begin, kCeChunk);
      next = s.end;
    }
    EXPECT_EQ(next, vocab);
    CeSpan past = ce_chunk_span(chunks, vocab);
    EXPECT_EQ(past.begin, past.end);
  }
}

// Row offsets and statistic slots beyond 2^32, computed in 64 bits; grid.y is capped and rows beyond it
// are reached by the block stride.
TEST(CeChunkIndex, RowAndSlotArithmeticIs64Bit) {
  const std::size_t vocab = 256000, rows = 20000;  // 5.12e9 elements
  float* base = nullptr;
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(ce_row(base, rows - 1, vocab)), (rows - 1) * vocab * sizeof(float));
  EXPECT_GT((rows - 1) * vocab, std::size_t{1} << 32);
  const std::size_t r = std::size_t{1} << 27, chunks = ce_chunk_count(vocab);
  EXPECT_EQ(ce_stats_slot(r, chunks, chunks - 1), r * chunks + chunks - 1);
  EXPECT_GT(ce_stats_slot(r, chunks, chunks - 1), std::size_t{1} << 32);
  EXPECT_EQ(ce_grid_rows(0), 0u);
  EXPECT_EQ(ce_grid_rows(7), 7u);
  EXPECT_EQ(ce_grid_rows(std::size_t{1} << 40), kCeMaxGridY);
  // Every row of a 200000-row launch is handled by exactly one block row: r = y + k·grid_y.
  const std::size_t many = 200000, gy = ce_grid_rows(many);
  std::vector<int> seen(many, 0);
  for (std::size_t y = 0; y < gy; ++y)
    for (std::size_t row = y; row < many; row += gy) ++seen[row];
  for (std::size_t row = 0; row < many; ++row) ASSERT_EQ(seen[row], 1) << row;
}

// One row of a 20000 x 256000 tensor at a time (rows straddling element 2^31 and 2^32, and the last row):
// pass 1's per-thread max and sum, pass 2's softmax and the backward, through the shifted base exactly as
// the kernels address it, against the same element math on the row alone.
TYPED_TEST(CeChunkTest, RowsOfAHugeTensorAddressTheRightElements) {
  using S = TypeParam;
  using T = typename S::T;
  const std::size_t vocab = 256000, rows = 20000;
  for (std::size_t r : {std::size_t{8388}, std::size_t{16777}, rows - 1}) {
    SCOPED_TRACE(::testing::Message() << "row " << r << " starts at element " << r * vocab);
    std::vector<T> x = random_row<S>(vocab, r), out(vocab, T(0)), want_out(vocab);
    const T* xb = shifted(x.data(), r * vocab);
    T* ob = shifted(out.data(), r * vocab);
    const std::int32_t target = static_cast<std::int32_t>(kCeChunk + 17);  // inside chunk 1
    const float go = 0.75f;
    for (std::size_t c = 0; c < ce_chunk_count(vocab); ++c) {
      const CeSpan span = ce_chunk_span(c, vocab);
      // Pass 1, per thread, vs the same strided loop over the row alone.
      float mx = kCeMaxFloor;
      std::vector<float> sums(kCeBlock);
      for (unsigned tid = 0; tid < kCeBlock; ++tid) {
        float want = kCeMaxFloor;
        for (std::size_t i = span.begin + tid; i < span.end; i += kCeBlock) want = gk_fmax(want, S::load(x[i]));
        float got = ce_thread_max<S>(ce_row(xb, r, vocab), span, tid, kCeBlock);
        ASSERT_TRUE(same_bits(&got, &want, sizeof got)) << "chunk " << c << " thread " << tid;
        mx = gk_fmax(mx, got);
      }
      for (unsigned tid = 0; tid < kCeBlock; ++tid) {
        float want = 0.0f;
        for (std::size_t i = span.begin + tid; i < span.end; i += kCeBlock) want += gk_exp(S::load(x[i]) - mx);
        sums[tid] = ce_thread_sum_exp<S>(ce_row(xb, r, vocab), span, tid, kCeBlock, mx);
        ASSERT_TRUE(same_bits(&sums[tid], &want, sizeof want)) << "chunk " << c << " thread " << tid;
      }
      float s = kCeSumEpsilon;
      for (float v : sums) s += v;
      // Pass 2 and the backward, every thread of the block.
      for (unsigned tid = 0; tid < kCeBlock; ++tid)
        ce_thread_softmax<S>(ce_row(xb, r, vocab), ce_row(ob, r, vocab), span, tid, kCeBlock, mx, s);
      for (std::size_t i = span.begin; i < span.end; ++i) want_out[i] = S::store(ce_softmax<float>(S::load(x[i]), mx, s));
      ASSERT_TRUE(same_bits(out.data() + span.begin, want_out.data() + span.begin, (span.end - span.begin) * sizeof(T)))
          << "softmax, chunk " << c;
      for (unsigned tid = 0; tid < kCeBlock; ++tid)
        ce_thread_backward<S>(ce_row(ob, r, vocab), span, tid, kCeBlock, target, go);
      for (std::size_t i = span.begin; i < span.end; ++i)
        want_out[i] = S::store(ce_grad<float>(S::load(want_out[i]), i == static_cast<std::size_t>(target), go));
      ASSERT_TRUE(same_bits(out.data() + span.begin, want_out.data() + span.begin, (span.end - span.begin) * sizeof(T)))
          << "backward, chunk " << c;
    }
    // The target column got softmax - 1: the one-hot hit the right element.
    EXPECT_LT(S::load(out[target]), 0.0f);
  }
}
