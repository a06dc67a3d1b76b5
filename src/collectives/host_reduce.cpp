#include "collectives/host_reduce.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#include <cpuid.h>
#endif

namespace gpucheck::collectives {

// The MPI transport's user-defined fp16/bf16 operations run here on every byte a reduction moves, so they
// must run at memory speed (issue 21: a per-element double round trip through decode/encode made the host
// reduce-scatter 100x slower than all-gather). Typed loops on raw bits, F16C for fp16 where the CPU has it;
// every path computes float(a) op float(b) rounded to nearest even, as before.
namespace {

float bits_to_float(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
std::uint32_t float_to_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// fp16 -> float for all 65536 patterns (exact; 256 KiB built once).
const std::array<float, 65536>& half_table() {
  static const auto table = [] {
    std::array<float, 65536> t{};
    for (std::uint32_t h = 0; h < 65536; ++h) t[h] = half_bits_to_float(static_cast<std::uint16_t>(h));
    return t;
  }();
  return table;
}

inline std::uint16_t to_bf16(float f) {  // same rounding and NaN rule as float_to_bf16_bits
  std::uint32_t x = float_to_bits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((x >> 16) | 0x40u);
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<std::uint16_t>(x >> 16);
}

template <bool Max>
void bf16_loop(std::uint16_t* a, const std::uint16_t* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    float x = bits_to_float(static_cast<std::uint32_t>(a[i]) << 16), y = bits_to_float(static_cast<std::uint32_t>(b[i]) << 16);
    a[i] = to_bf16(Max ? (x < y ? y : x) : x + y);
  }
}

template <bool Max>
void half_loop_portable(std::uint16_t* a, const std::uint16_t* b, std::size_t n) {
  const auto& t = half_table();
  for (std::size_t i = 0; i < n; ++i) {
    float x = t[a[i]], y = t[b[i]];
    a[i] = float_to_half_bits(Max ? (x < y ? y : x) : x + y);
  }
}

#if defined(__x86_64__)
// 8 lanes at a time with the hardware conversions (vcvtph2ps / vcvtps2ph with round-to-nearest-even);
// max(y, x) lane-wise is std::max(x, y)'s (x < y ? y : x). The tail goes through the portable loop.
template <bool Max>
__attribute__((target("avx2,f16c"))) void half_loop_f16c(std::uint16_t* a, const std::uint16_t* b, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256 x = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i)));
    __m256 y = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i)));
    __m256 r = Max ? _mm256_max_ps(y, x) : _mm256_add_ps(x, y);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(a + i), _mm256_cvtps_ph(r, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
  half_loop_portable<Max>(a + i, b + i, n - i);
}

// bf16 is the top half of a float: widen by a shift, reduce in float lanes, round to nearest even with the
// same integer trick (and NaN rule) as to_bf16, narrow with an unsigned pack. Without it the scalar loop
// (a branch per element) made bf16 reduce-scatter half as fast as fp16 (issue 21).
template <bool Max>
__attribute__((target("avx2"))) void bf16_loop_avx2(std::uint16_t* a, const std::uint16_t* b, std::size_t n) {
  const __m256i round = _mm256_set1_epi32(0x7fff), one = _mm256_set1_epi32(1);
  const __m256i abs_mask = _mm256_set1_epi32(0x7fffffff), inf = _mm256_set1_epi32(0x7f800000);
  const __m256i quiet = _mm256_set1_epi32(0x40);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256i ua = _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i))), 16);
    __m256i ub = _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i))), 16);
    __m256 x = _mm256_castsi256_ps(ua), y = _mm256_castsi256_ps(ub);
    __m256i u = _mm256_castps_si256(Max ? _mm256_max_ps(y, x) : _mm256_add_ps(x, y));
    __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), one);
    __m256i rounded = _mm256_srli_epi32(_mm256_add_epi32(u, _mm256_add_epi32(round, lsb)), 16);
    __m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(u, abs_mask), inf);  // both sides non-negative
    __m256i r = _mm256_blendv_epi8(rounded, _mm256_or_si256(_mm256_srli_epi32(u, 16), quiet), nan);
    __m128i packed = _mm_packus_epi32(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));  // all < 2^16
    _mm_storeu_si128(reinterpret_cast<__m128i*>(a + i), packed);
  }
  bf16_loop<Max>(a + i, b + i, n - i);
}

bool cpu_has_avx2() {
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
}

// F16C from CPUID leaf 1 (ECX bit 29): clang 14's __builtin_cpu_supports does not know "f16c".
bool cpu_has_f16c() {
  static const bool has = [] {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return cpu_has_avx2() && __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_F16C) != 0;
  }();
  return has;
}
#endif

template <bool Max>
void half_loop(std::uint16_t* a, const std::uint16_t* b, std::size_t n) {
#if defined(__x86_64__)
  if (cpu_has_f16c()) return half_loop_f16c<Max>(a, b, n);
#endif
  half_loop_portable<Max>(a, b, n);
}

}  // namespace

void reduce_into(DType t, RedOp op, void* inout, const void* in, std::size_t n) {
  const bool max = op == RedOp::kMax;
  switch (t) {
    case DType::kF32: {
      // single-precision arithmetic, so rounding happens where a GPU's fp32 adds round
      auto* a = static_cast<float*>(inout);
      const auto* b = static_cast<const float*>(in);
      if (max) for (std::size_t i = 0; i < n; ++i) a[i] = std::max(a[i], b[i]);
      else for (std::size_t i = 0; i < n; ++i) a[i] = a[i] + b[i];
      return;
    }
    case DType::kU8: {
      auto* a = static_cast<std::uint8_t*>(inout);
      const auto* b = static_cast<const std::uint8_t*>(in);
      if (max) for (std::size_t i = 0; i < n; ++i) a[i] = std::max(a[i], b[i]);
      else for (std::size_t i = 0; i < n; ++i) a[i] = static_cast<std::uint8_t>(a[i] + b[i]);
      return;
    }
    case DType::kF16: {
      auto* a = static_cast<std::uint16_t*>(inout);
      const auto* b = static_cast<const std::uint16_t*>(in);
      return max ? half_loop<true>(a, b, n) : half_loop<false>(a, b, n);
    }
    case DType::kBF16: {
      auto* a = static_cast<std::uint16_t*>(inout);
      const auto* b = static_cast<const std::uint16_t*>(in);
#if defined(__x86_64__)
      if (cpu_has_avx2()) return max ? bf16_loop_avx2<true>(a, b, n) : bf16_loop_avx2<false>(a, b, n);
#endif
      return max ? bf16_loop<true>(a, b, n) : bf16_loop<false>(a, b, n);
    }
  }
}

// avg's pre-scaling: float(x) * float(factor) rounded to the dtype, in typed loops (the generic
// decode/encode through double per element cost ~50 ns each on every avg reduce-scatter input).
void scale_in_place(DType t, void* data, std::size_t n, double factor) {
  const float f = static_cast<float>(factor);
  switch (t) {
    case DType::kF32: {
      auto* p = static_cast<float*>(data);
      for (std::size_t i = 0; i < n; ++i) p[i] = p[i] * f;
      return;
    }
    case DType::kF16: {
      auto* p = static_cast<std::uint16_t*>(data);
      const auto& table = half_table();
      for (std::size_t i = 0; i < n; ++i) p[i] = float_to_half_bits(table[p[i]] * f);
      return;
    }
    case DType::kBF16: {
      auto* p = static_cast<std::uint16_t*>(data);
      for (std::size_t i = 0; i < n; ++i) p[i] = to_bf16(bits_to_float(static_cast<std::uint32_t>(p[i]) << 16) * f);
      return;
    }
    case DType::kU8:
      break;
  }
  for (std::size_t i = 0; i < n; ++i)
    store_bits(t, data, i, encode(t, static_cast<float>(decode(t, load_bits(t, data, i))) * static_cast<float>(factor)));
}

}  // namespace gpucheck::collectives
