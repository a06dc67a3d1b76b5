#pragma once
// Which x86 vector ISA the CPU offload Adam may use here: the CPU must report it (CPUID) AND the OS must
// save the wider registers on context switch (XGETBV), otherwise the instructions fault.
#include <string>
#include <vector>

namespace gpucheck::kernels {

enum class CpuIsa { kScalar, kAvx2, kAvx512 };  // kAvx2 = AVX2 + FMA + F16C; kAvx512 = AVX-512F (+ the former)
const char* to_string(CpuIsa isa);

struct CpuFeatures {
  bool avx = false, avx2 = false, fma = false, f16c = false, avx512f = false;
  bool os_avx = false;     // XCR0 bits 1-2 (SSE + AVX state)
  bool os_avx512 = false;  // XCR0 bits 5-7 (opmask + ZMM state)
};
CpuFeatures detect_cpu_features();

bool cpu_isa_supported(CpuIsa isa, const CpuFeatures& f = detect_cpu_features());
CpuIsa best_cpu_isa(const CpuFeatures& f = detect_cpu_features());
std::vector<CpuIsa> supported_cpu_isas();  // scalar first, best last

}  // namespace gpucheck::kernels
