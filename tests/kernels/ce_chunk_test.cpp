// The cross-entropy kernels' index arithmetic and per-thread work (ce_chunk.h), run on the host: chunks laid
// on each row's 16-byte grid tile every vocabulary at every phase; the kernel's 256 threads together own each
// column exactly once; every 16-byte access is aligned and whole packs are vector accesses; on rows of a
// rows x vocab tensor with far more than 2^32 elements (only the row under test exists; the base pointer is
// shifted so row r sits at r·vocab) the per-thread code reads/writes the right addresses, bit-identical to
// the element math applied with row-local indices.
#include <gtest/gtest.h>

#include <cmath>
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

// A 16-byte aligned buffer of n elements starting `phase` elements past the boundary (as a row inside a
// cudaMalloc'd tensor does).
template <typename T>
struct PhasedRow {
  PhasedRow(std::size_t n, unsigned phase) : storage((n + 64) * sizeof(T) + 64) {
    auto a = reinterpret_cast<std::uintptr_t>(storage.data());
    a = (a + 15) / 16 * 16;
    row = reinterpret_cast<T*>(a) + phase;
  }
  std::vector<unsigned char> storage;
  T* row;
};

const std::size_t kVocabs[] = {1, 7, 10, 999, 4095, 4096, 4097, 8191, 86583, 128256, 256000};

}  // namespace

TYPED_TEST(CeChunkTest, SpansTileEveryVocabularyAtEveryPhase) {
  using T = typename TypeParam::T;
  for (std::size_t vocab : kVocabs)
    for (unsigned phase = 0; phase < ce_pack_width<T>(); ++phase) {
      SCOPED_TRACE(::testing::Message() << "vocab " << vocab << " phase " << phase);
      CeRowPlan p;
      p.vocab = vocab, p.phase = phase, p.vector = true;
      const std::size_t chunks = ce_chunk_count<T>(vocab);
      EXPECT_EQ(chunks, (vocab + ce_pack_width<T>() - 1 + kCeChunk - 1) / kCeChunk);
      std::size_t next = 0;
      for (std::size_t c = 0; c < chunks; ++c) {
        CeSpan s = ce_chunk_span(c, p);
        ASSERT_EQ(s.begin, next);
        ASSERT_LE(s.end - s.begin, kCeChunk);
        if (c > 0 && s.begin < s.end) ASSERT_EQ((s.begin + phase) % ce_pack_width<T>(), 0u) << "chunk " << c;
        next = s.end;
      }
      EXPECT_EQ(next, vocab);
      CeSpan past = ce_chunk_span(chunks, p);
      EXPECT_EQ(past.begin, past.end);
    }
}

// Every column of the row is owned by exactly one (chunk, thread, register) and lies in that chunk's span;
// 16-byte accesses are aligned, and exist exactly for the packs wholly inside the row.
TYPED_TEST(CeChunkTest, ThreadsOwnEveryColumnOnceWithAlignedPacks) {
  using S = TypeParam;
  using T = typename S::T;
  constexpr unsigned W = ce_pack_width<T>();
  for (std::size_t vocab : kVocabs)
    for (unsigned phase = 0; phase < W; ++phase) {
      SCOPED_TRACE(::testing::Message() << "vocab " << vocab << " phase " << phase);
      PhasedRow<T> buf(vocab, phase);
      const CeRowPlan p = ce_row_plan(buf.row, vocab);
      ASSERT_EQ(p.phase, phase);
      ASSERT_TRUE(p.vector);
      std::vector<int> owner(vocab, 0);
      std::size_t packs_expected = 0;
      ce_vector_access_log = {};
      for (std::size_t c = 0; c < ce_chunk_count<T>(vocab); ++c) {
        const CeSpan span = ce_chunk_span(c, p);
        for (unsigned tid = 0; tid < kCeBlock; ++tid) {
          std::vector<int> slots(kCePerThread, 0);
          auto visit = [&](unsigned slot, std::size_t col) {
            ASSERT_LT(col, vocab);
            ASSERT_GE(col, span.begin);
            ASSERT_LT(col, span.end);
            ++owner[col];
            ++slots[slot];
          };
          ce_for_each<T>(
              p, c, tid, visit,
              [&](unsigned slot, std::size_t col) {
                ce_note_vector(buf.row + col);
                for (unsigned j = 0; j < W; ++j) visit(slot + j, col + j);
              });
          for (int s : slots) ASSERT_LE(s, 1);
          for (unsigned k = 0; k < kCePerThread / W; ++k) {
            std::size_t first = ce_shifted_column<T>(c, tid, k, 0);
            packs_expected += first >= phase && first - phase + W <= vocab;
          }
        }
      }
      for (std::size_t col = 0; col < vocab; ++col) ASSERT_EQ(owner[col], 1) << "column " << col;
      EXPECT_EQ(ce_vector_access_log.misaligned, 0u);
      EXPECT_EQ(ce_vector_access_log.accesses, packs_expected);
      const std::size_t first_aligned = (W - phase) % W;  // first column on a 16-byte boundary
      EXPECT_EQ(packs_expected > 0, first_aligned + W <= vocab);
    }
}

// A row that is not even element-aligned (a 16-bit view at an odd byte address) never takes a vector access.
TEST(CeChunkIndex, MisalignedRowIsAllScalar) {
  std::vector<unsigned char> raw(2 * 5000 + 32);
  auto a = (reinterpret_cast<std::uintptr_t>(raw.data()) + 15) / 16 * 16 + 1;
  auto* row = reinterpret_cast<std::uint16_t*>(a);
  const CeRowPlan p = ce_row_plan(row, 5000);
  EXPECT_FALSE(p.vector);
  float v[kCePerThread];
  ce_vector_access_log = {};
  for (std::size_t c = 0; c < ce_chunk_count<std::uint16_t>(5000); ++c)
    for (unsigned tid = 0; tid < kCeBlock; ++tid) ce_thread_load<Fp16Storage>(row, p, c, tid, v);
  EXPECT_EQ(ce_vector_access_log.accesses, 0u);
}

// Row offsets and statistic slots beyond 2^32, computed in 64 bits; grid.y is capped and rows beyond it
// are reached by the block stride.
TEST(CeChunkIndex, RowAndSlotArithmeticIs64Bit) {
  const std::size_t vocab = 256000, rows = 20000;  // 5.12e9 elements
  float* base = nullptr;
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(ce_row(base, rows - 1, vocab)), (rows - 1) * vocab * sizeof(float));
  EXPECT_GT((rows - 1) * vocab, std::size_t{1} << 32);
  const std::size_t r = std::size_t{1} << 27, chunks = ce_chunk_count<float>(vocab);
  EXPECT_EQ(ce_stats_slot(r, chunks, chunks - 1), r * chunks + chunks - 1);
  EXPECT_GT(ce_stats_slot(r, chunks, chunks - 1), std::size_t{1} << 32);
  EXPECT_EQ(ce_shifted_column<float>(std::size_t{1} << 30, kCeBlock - 1, 3, 3),
            (std::size_t{1} << 30) * kCeChunk + (3 * kCeBlock + kCeBlock - 1) * 4 + 3);
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

// The softmax pass's merge of chunk statistics as (max, sum) pairs: the larger max, both sums rescaled to
// it; (-1e6, 0) changes nothing; a NaN sum or a +inf max (inf - inf in its chunk) stays NaN.
TEST(CeChunkIndex, MergeOfChunkStatistics) {
  const CeRowMerge a{1.0f, 2.0f}, b{3.0f, 1.0f}, empty{};
  const CeRowMerge m = ce_merge(a, b);
  EXPECT_EQ(m.max, 3.0f);
  EXPECT_EQ(float_bits(m.sum), float_bits(2.0f * std::exp(1.0f - 3.0f) + 1.0f * std::exp(0.0f)));
  EXPECT_EQ(float_bits(ce_merge(b, a).sum), float_bits(m.sum));  // two terms: order-free
  for (const CeRowMerge& x : {a, b, CeRowMerge{kCeMaxFloor, 0.0f}}) {
    EXPECT_EQ(float_bits(ce_merge(empty, x).max), float_bits(x.max));
    EXPECT_EQ(float_bits(ce_merge(empty, x).sum), float_bits(x.sum));
    EXPECT_EQ(float_bits(ce_merge(x, empty).sum), float_bits(x.sum));
  }
  EXPECT_TRUE(std::isnan(ce_merge(a, CeRowMerge{0.5f, NAN}).sum));
  EXPECT_TRUE(std::isnan(ce_merge(a, CeRowMerge{INFINITY, NAN}).sum));
  EXPECT_EQ(ce_merge(a, CeRowMerge{INFINITY, NAN}).max, INFINITY);
}

// Thread tid folds chunks tid, tid + 256, ... in that order; over a row of 700 chunks the block's merge (any
// order of the per-thread folds) gives the row's max exactly and the sum within a few float roundings.
TEST(CeChunkIndex, ThreadFoldsOfChunkStatistics) {
  struct St { float x, y; };
  std::vector<St> st(700);
  for (std::size_t k = 0; k < st.size(); ++k)
    st[k] = {static_cast<float>(std::sin(0.37 * k) * 40.0), static_cast<float>(1.0 + (k % 13) * 0.25)};
  double want_max = kCeMaxFloor, want_sum = 0.0;
  for (const St& s : st) want_max = std::fmax(want_max, s.x);
  for (const St& s : st) want_sum += s.y * std::exp(static_cast<double>(s.x) - want_max);
  CeRowMerge block;
  for (unsigned tid = 0; tid < kCeBlock; ++tid) {
    const CeRowMerge m = ce_thread_merge(st.data(), st.size(), tid);
    CeRowMerge by_hand;
    for (std::size_t k = tid; k < st.size(); k += kCeBlock) by_hand = ce_merge(by_hand, CeRowMerge{st[k].x, st[k].y});
    ASSERT_EQ(float_bits(m.max), float_bits(by_hand.max)) << tid;
    ASSERT_EQ(float_bits(m.sum), float_bits(by_hand.sum)) << tid;
    block = ce_merge(block, m);
  }
  EXPECT_EQ(static_cast<double>(block.max), want_max);
  EXPECT_NEAR(block.sum, want_sum, want_sum * 1e-5);
  // A thread past the last chunk keeps the identity; fewer chunks than threads leave most threads idle.
  const CeRowMerge idle = ce_thread_merge(st.data(), 3, 200);
  EXPECT_EQ(idle.max, kCeMaxFloor);
  EXPECT_EQ(idle.sum, 0.0f);
}

// One row of a 20000 x 256000 tensor at a time (rows straddling element 2^31 and 2^32, and the last row;
// their phases differ): pass 1's per-thread max and sum, pass 2's softmax and the backward, through the
// shifted base exactly as the kernels address it, against the same element math on the row alone.
TYPED_TEST(CeChunkTest, RowsOfAHugeTensorAddressTheRightElements) {
  using S = TypeParam;
  using T = typename S::T;
  constexpr unsigned W = ce_pack_width<T>();
  const std::size_t vocab = 255999, rows = 20000;  // odd vocab: rows sit at every phase
  for (std::size_t r : {std::size_t{8389}, std::size_t{16777}, rows - 1}) {
    const unsigned phase = static_cast<unsigned>((r * vocab) % W);
    SCOPED_TRACE(::testing::Message() << "row " << r << " starts at element " << r * vocab << ", phase " << phase);
    PhasedRow<T> xbuf(vocab, phase), obuf(vocab, phase);
    std::vector<T> x = random_row<S>(vocab, r), want_out(vocab);
    std::memcpy(xbuf.row, x.data(), vocab * sizeof(T));
    std::memset(obuf.row, 0, vocab * sizeof(T));
    const T* xb = shifted<const T>(xbuf.row, r * vocab);
    T* ob = shifted(obuf.row, r * vocab);
    const T* xrow = ce_row(xb, r, vocab);
    T* orow = ce_row(ob, r, vocab);
    const CeRowPlan p = ce_row_plan(xrow, vocab);
    ASSERT_EQ(p.phase, phase);
    const std::int32_t target = static_cast<std::int32_t>(kCeChunk + 17);  // inside chunk 1
    const float go = 0.75f;
    // Thread tid's columns of chunk c in register order, from the layout's definition alone.
    auto columns = [&](std::size_t c, unsigned tid) {
      std::vector<long long> cols;
      for (unsigned k = 0; k < kCePerThread / W; ++k)
        for (unsigned j = 0; j < W; ++j) {
          long long s = static_cast<long long>(c * kCeChunk + (k * kCeBlock + tid) * W + j) - phase;
          cols.push_back(s >= 0 && s < static_cast<long long>(vocab) ? s : -1);
        }
      return cols;
    };
    for (std::size_t c = 0; c < ce_chunk_count<T>(vocab); ++c) {
      float mx = kCeMaxFloor;
      std::vector<float> sums(kCeBlock);
      float v[kCePerThread];
      for (unsigned tid = 0; tid < kCeBlock; ++tid) {
        ce_thread_load<S>(xrow, p, c, tid, v);
        float want = kCeMaxFloor, got = ce_thread_max(v);
        for (long long col : columns(c, tid))
          if (col >= 0) want = gk_fmax(want, S::load(x[static_cast<std::size_t>(col)]));
        ASSERT_TRUE(same_bits(&got, &want, sizeof got)) << "chunk " << c << " thread " << tid;
        mx = gk_fmax(mx, got);
      }
      for (unsigned tid = 0; tid < kCeBlock; ++tid) {
        ce_thread_load<S>(xrow, p, c, tid, v);
        float want = 0.0f;
        for (long long col : columns(c, tid))
          want += col >= 0 ? gk_exp(S::load(x[static_cast<std::size_t>(col)]) - mx) : gk_exp(-INFINITY - mx);
        sums[tid] = ce_thread_sum_exp(v, mx);
        ASSERT_TRUE(same_bits(&sums[tid], &want, sizeof want)) << "chunk " << c << " thread " << tid;
      }
      float s = kCeSumEpsilon;
      for (float f : sums) s += f;
      const float inv = 1.0f / s;
      const CeSpan span = ce_chunk_span(c, p);
      for (unsigned tid = 0; tid < kCeBlock; ++tid) ce_thread_softmax<S>(xrow, orow, p, p, c, tid, mx, inv);
      for (std::size_t i = span.begin; i < span.end; ++i)
        want_out[i] = S::store(ce_softmax_scaled<float>(S::load(x[i]), mx, inv));
      ASSERT_TRUE(same_bits(obuf.row + span.begin, want_out.data() + span.begin, (span.end - span.begin) * sizeof(T)))
          << "softmax, chunk " << c;
      for (unsigned tid = 0; tid < kCeBlock; ++tid) ce_thread_backward<S>(orow, p, c, tid, target, go);
      for (std::size_t i = span.begin; i < span.end; ++i)
        want_out[i] = S::store(ce_grad<float>(S::load(want_out[i]), i == static_cast<std::size_t>(target), go));
      ASSERT_TRUE(same_bits(obuf.row + span.begin, want_out.data() + span.begin, (span.end - span.begin) * sizeof(T)))
          << "backward, chunk " << c;
    }
    // The target column got softmax - 1: the one-hot hit the right element.
    EXPECT_LT(S::load(obuf.row[target]), 0.0f);
  }
}

// Softmax written to a buffer on another 16-byte phase than the logits: same bits, element by element.
TYPED_TEST(CeChunkTest, SoftmaxToADifferentPhaseMatches) {
  using S = TypeParam;
  using T = typename S::T;
  const std::size_t vocab = 9000;
  PhasedRow<T> in(vocab, 0), out(vocab, 1), ref(vocab, 0);
  auto x = random_row<S>(vocab, 3);
  std::memcpy(in.row, x.data(), vocab * sizeof(T));
  const CeRowPlan pi = ce_row_plan(in.row, vocab), po = ce_row_plan(out.row, vocab);
  for (std::size_t c = 0; c < ce_chunk_count<T>(vocab); ++c)
    for (unsigned tid = 0; tid < kCeBlock; ++tid) {
      ce_thread_softmax<S>(in.row, out.row, pi, po, c, tid, 2.0f, 0.01f);
      ce_thread_softmax<S>(in.row, ref.row, pi, pi, c, tid, 2.0f, 0.01f);
    }
  EXPECT_TRUE(same_bits(out.row, ref.row, vocab * sizeof(T)));
}
