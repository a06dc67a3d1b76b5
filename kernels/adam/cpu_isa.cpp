#include "adam/cpu_isa.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define GK_X86 1
#endif

namespace gpucheck::kernels {

const char* to_string(CpuIsa isa) {
  switch (isa) {
    case CpuIsa::kScalar: return "scalar";
    case CpuIsa::kAvx2: return "avx2_fma_f16c";
    case CpuIsa::kAvx512: return "avx512f";
  }
  return "?";
}

CpuFeatures detect_cpu_features() {
  CpuFeatures f;
#ifdef GK_X86
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return f;
  f.fma = c & (1u << 12);
  bool osxsave = c & (1u << 27);
  f.avx = c & (1u << 28);
  f.f16c = c & (1u << 29);
  if (osxsave) {
    unsigned lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    f.os_avx = (lo & 0x6u) == 0x6u;
    f.os_avx512 = f.os_avx && (lo & 0xe0u) == 0xe0u;
  }
  if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
    f.avx2 = b & (1u << 5);
    f.avx512f = b & (1u << 16);
  }
#endif
  return f;
}

bool cpu_isa_supported(CpuIsa isa, const CpuFeatures& f) {
  bool avx2 = f.avx && f.avx2 && f.fma && f.f16c && f.os_avx;
  switch (isa) {
    case CpuIsa::kScalar: return true;
    case CpuIsa::kAvx2: return avx2;
    case CpuIsa::kAvx512: return avx2 && f.avx512f && f.os_avx512;
  }
  return false;
}

CpuIsa best_cpu_isa(const CpuFeatures& f) {
  if (cpu_isa_supported(CpuIsa::kAvx512, f)) return CpuIsa::kAvx512;
  if (cpu_isa_supported(CpuIsa::kAvx2, f)) return CpuIsa::kAvx2;
  return CpuIsa::kScalar;
}

std::vector<CpuIsa> supported_cpu_isas() {
  std::vector<CpuIsa> out;
  for (CpuIsa i : {CpuIsa::kScalar, CpuIsa::kAvx2, CpuIsa::kAvx512})
    if (cpu_isa_supported(i)) out.push_back(i);
  return out;
}

}  // namespace gpucheck::kernels
