#include "adam/adam_offload.h"

#include <sched.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/half_bits.h"

#if defined(__x86_64__)
// GCC 12 warns about _mm512_undefined_* inside its own intrinsic headers (a known false positive).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#define GK_X86_64 1
#endif

namespace gpucheck::kernels {

namespace {

void range_scalar(const OffloadAdamBuffers& b, const AdamHyper& h, std::size_t i, std::size_t end) {
  for (; i < end; ++i) {
    float g = b.bf16 ? bf16_to_float(b.grad[i]) : fp16_to_float(b.grad[i]);
    float p = b.param[i], m = b.m[i], v = b.v[i];
    adam_offload_element(h, g, p, m, v);
    b.param[i] = p;
    b.m[i] = m;
    b.v[i] = v;
    b.param_h[i] = b.bf16 ? bf16_from_float(p) : fp16_from_float(p);
  }
}

#ifdef GK_X86_64
#define GK_AVX2 __attribute__((target("avx2,fma,f16c")))
#define GK_AVX512 __attribute__((target("avx512f,avx2,fma,f16c")))

GK_AVX2 inline __m256 bf16x8_to_ps(__m128i raw) {
  return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(raw), 16));
}

GK_AVX2 inline __m128i ps_to_bf16x8(__m256 p) {  // round to nearest even, NaN quieted (as bf16_from_float)
  __m256i x = _mm256_castps_si256(p);
  __m256i hi = _mm256_srli_epi32(x, 16);
  __m256i lsb = _mm256_and_si256(hi, _mm256_set1_epi32(1));
  __m256i r = _mm256_srli_epi32(_mm256_add_epi32(x, _mm256_add_epi32(lsb, _mm256_set1_epi32(0x7fff))), 16);
  __m256i nan = _mm256_or_si256(hi, _mm256_set1_epi32(0x40));
  r = _mm256_blendv_epi8(r, nan, _mm256_castps_si256(_mm256_cmp_ps(p, p, _CMP_UNORD_Q)));
  return _mm_packus_epi32(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));
}

GK_AVX2 void range_avx2(const OffloadAdamBuffers& b, const AdamHyper& h, std::size_t i, std::size_t end) {
  const __m256 b1 = _mm256_set1_ps(h.beta1), omb1 = _mm256_set1_ps(1.0f - h.beta1);
  const __m256 b2 = _mm256_set1_ps(h.beta2), omb2 = _mm256_set1_ps(1.0f - h.beta2);
  const __m256 neg_lr = _mm256_set1_ps(-h.lr), wd = _mm256_set1_ps(h.weight_decay);
  const __m256 bc1 = _mm256_set1_ps(h.bias_correction1), bc2 = _mm256_set1_ps(h.bias_correction2);
  const __m256 eps = _mm256_set1_ps(h.eps), scale = _mm256_set1_ps(h.scale);
  for (; i + 8 <= end; i += 8) {
    __m128i graw = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.grad + i));
    __m256 g = _mm256_div_ps(b.bf16 ? bf16x8_to_ps(graw) : _mm256_cvtph_ps(graw), scale);
    __m256 m = _mm256_fmadd_ps(b1, _mm256_loadu_ps(b.m + i), _mm256_mul_ps(omb1, g));
    __m256 v = _mm256_fmadd_ps(b2, _mm256_loadu_ps(b.v + i), _mm256_mul_ps(omb2, _mm256_mul_ps(g, g)));
    __m256 p = _mm256_loadu_ps(b.param + i);
    p = _mm256_fmadd_ps(neg_lr, _mm256_mul_ps(wd, p), p);
    __m256 den = _mm256_add_ps(_mm256_sqrt_ps(_mm256_div_ps(v, bc2)), eps);
    p = _mm256_fmadd_ps(neg_lr, _mm256_div_ps(_mm256_div_ps(m, bc1), den), p);
    _mm256_storeu_ps(b.m + i, m);
    _mm256_storeu_ps(b.v + i, v);
    _mm256_storeu_ps(b.param + i, p);
    __m128i ph = b.bf16 ? ps_to_bf16x8(p) : _mm256_cvtps_ph(p, _MM_FROUND_TO_NEAREST_INT);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(b.param_h + i), ph);
  }
  range_scalar(b, h, i, end);
}

GK_AVX512 inline __m256i ps_to_bf16x16(__m512 p) {
  __m512i x = _mm512_castps_si512(p);
  __m512i hi = _mm512_srli_epi32(x, 16);
  __m512i lsb = _mm512_and_si512(hi, _mm512_set1_epi32(1));
  __m512i r = _mm512_srli_epi32(_mm512_add_epi32(x, _mm512_add_epi32(lsb, _mm512_set1_epi32(0x7fff))), 16);
  r = _mm512_mask_mov_epi32(r, _mm512_cmp_ps_mask(p, p, _CMP_UNORD_Q), _mm512_or_si512(hi, _mm512_set1_epi32(0x40)));
  return _mm512_cvtepi32_epi16(r);
}

GK_AVX512 void range_avx512(const OffloadAdamBuffers& b, const AdamHyper& h, std::size_t i, std::size_t end) {
  const __m512 b1 = _mm512_set1_ps(h.beta1), omb1 = _mm512_set1_ps(1.0f - h.beta1);
  const __m512 b2 = _mm512_set1_ps(h.beta2), omb2 = _mm512_set1_ps(1.0f - h.beta2);
  const __m512 neg_lr = _mm512_set1_ps(-h.lr), wd = _mm512_set1_ps(h.weight_decay);
  const __m512 bc1 = _mm512_set1_ps(h.bias_correction1), bc2 = _mm512_set1_ps(h.bias_correction2);
  const __m512 eps = _mm512_set1_ps(h.eps), scale = _mm512_set1_ps(h.scale);
  for (; i + 16 <= end; i += 16) {
    __m256i graw = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.grad + i));
    __m512 gd = b.bf16 ? _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(graw), 16)) : _mm512_cvtph_ps(graw);
    __m512 g = _mm512_div_ps(gd, scale);
    __m512 m = _mm512_fmadd_ps(b1, _mm512_loadu_ps(b.m + i), _mm512_mul_ps(omb1, g));
    __m512 v = _mm512_fmadd_ps(b2, _mm512_loadu_ps(b.v + i), _mm512_mul_ps(omb2, _mm512_mul_ps(g, g)));
    __m512 p = _mm512_loadu_ps(b.param + i);
    p = _mm512_fmadd_ps(neg_lr, _mm512_mul_ps(wd, p), p);
    __m512 den = _mm512_add_ps(_mm512_sqrt_ps(_mm512_div_ps(v, bc2)), eps);
    p = _mm512_fmadd_ps(neg_lr, _mm512_div_ps(_mm512_div_ps(m, bc1), den), p);
    _mm512_storeu_ps(b.m + i, m);
    _mm512_storeu_ps(b.v + i, v);
    _mm512_storeu_ps(b.param + i, p);
    __m256i ph = b.bf16 ? ps_to_bf16x16(p) : _mm512_cvtps_ph(p, _MM_FROUND_TO_NEAREST_INT);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(b.param_h + i), ph);
  }
  range_scalar(b, h, i, end);
}
#endif

using RangeFn = void (*)(const OffloadAdamBuffers&, const AdamHyper&, std::size_t, std::size_t);

RangeFn range_fn(CpuIsa isa) {
#ifdef GK_X86_64
  if (isa == CpuIsa::kAvx2) return range_avx2;
  if (isa == CpuIsa::kAvx512) return range_avx512;
#endif
  return range_scalar;
}

}  // namespace

unsigned offload_default_threads() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

void adam_offload_step(const OffloadAdamBuffers& b, const AdamHyper& h, CpuIsa isa, unsigned threads) {
  if (!cpu_isa_supported(isa)) throw std::invalid_argument(std::string("CPU ISA not supported here: ") + to_string(isa));
  if (threads == 0) throw std::invalid_argument("threads must be >= 1");
  if (b.n == 0) return;
  RangeFn fn = range_fn(isa);
  // Contiguous ranges, a multiple of 64 elements each (a cache line of fp16 twice over), as few threads
  // as make sense for small n.
  std::size_t chunk = (b.n + threads - 1) / threads;
  chunk = std::max<std::size_t>(64, (chunk + 63) / 64 * 64);
  std::vector<std::thread> pool;
  for (std::size_t begin = chunk; begin < b.n; begin += chunk)
    pool.emplace_back(fn, std::cref(b), std::cref(h), begin, std::min(b.n, begin + chunk));
  fn(b, h, 0, std::min(b.n, chunk));
  for (auto& t : pool) t.join();
}

AdamState adam_offload_on_copy(const AdamState& before, const AdamHyper& h, CpuIsa isa, unsigned threads) {
  AdamState s = before;
  OffloadAdamBuffers b;
  b.n = s.size();
  b.param = s.param.f32();
  b.param_h = s.param_h.u16();
  b.grad = s.grad.u16();
  b.m = s.m.f32();
  b.v = s.v.f32();
  b.bf16 = s.variant == AdamVariant::kOffloadBf16;
  adam_offload_step(b, h, isa, threads);
  return s;
}

}  // namespace gpucheck::kernels
