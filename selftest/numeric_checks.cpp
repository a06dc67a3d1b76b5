// The probes' numeric checks on corrupted results, for gpucheck selftest: each check is the function the
// probe itself calls on what the GPU returned (cublas.gemm's exact and tolerance checks, the pattern check
// of device.memory's host twin and of device.copy's device-to-host buffers, collectives.nccl's bit-exact
// comparison), fed once with a correct result and once with one element or bit corrupted, the way a test
// hook would corrupt a GPU's output. No GPU is needed or touched. Prints one JSON document on stdout:
// {"checks": [{"rule", "scenario", "clean": {"flagged", "detail"}, "corrupted": {...}}]}.
#include <cstdint>
#include <cmath>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "collectives/verify.h"
#include "gemm/gemm_reference.h"
#include "memtest/memtest_host.h"

namespace {

using namespace gpucheck;
using nlohmann::json;

json outcome(bool flagged, const std::string& detail) { return {{"flagged", flagged}, {"detail", detail}}; }

json gemm_exact() {
  auto c = kernels::make_integer_case(kernels::GemmType::kBf16, 48, 40, 64, 4, 7);
  auto want = kernels::exact_product(c);
  std::vector<float> got(want.begin(), want.end());  // what a correct GPU returns
  auto clean = kernels::check_exact(c, want, got);
  got[123] += 1.0f;  // one wrong element, as a faulty SM would leave it
  auto bad = kernels::check_exact(c, want, got);
  return {{"rule", "probe.gemm_exact"},
          {"scenario", "cublas.gemm: bf16 48x40x64 integer product, element 123 off by 1"},
          {"clean", outcome(!clean.ok, clean.first)},
          {"corrupted", outcome(!bad.ok, bad.ok ? "" : std::to_string(bad.wrong) + " wrong: " + bad.first)}};
}

json gemm_tolerance() {
  auto c = kernels::make_random_case(kernels::GemmType::kFp16, 32, 32, 256, 11);
  std::vector<double> want, abs_sum;
  kernels::reference_product(c, want, abs_sum);
  std::vector<float> got(want.begin(), want.end());
  double tol = kernels::gemm_tolerance(kernels::GemmType::kFp16, c.k);
  auto clean = kernels::check_tolerance(c, want, abs_sum, got, tol);
  got[500] = static_cast<float>(want[500] + 0.5 * abs_sum[500]);  // far outside fp16's bound
  auto bad = kernels::check_tolerance(c, want, abs_sum, got, tol);
  return {{"rule", "probe.gemm_tolerance"},
          {"scenario", "cublas.gemm: fp16 32x32x256 random product, element 500 off by half its scale"},
          {"clean", outcome(!clean.ok, clean.first)},
          {"corrupted", outcome(!bad.ok, bad.ok ? "" : std::to_string(bad.wrong) + " wrong: " + bad.first)}};
}

json pattern(const std::string& scenario, kernels::MemPattern kind, std::size_t flip_word, int flip_bit) {
  kernels::PatternSpec p;
  p.kind = kind;
  p.pass = 1;
  p.seed = 0x5e1f;
  std::vector<std::uint64_t> words(1 << 16);
  const std::uint64_t base = 0x7f0000000000ull;
  kernels::fill_host(p, words.data(), words.size(), base);
  auto clean = kernels::verify_host(p, words.data(), words.size(), base, 1);
  words[flip_word] ^= 1ull << flip_bit;  // a stuck or flipped bit
  auto bad = kernels::verify_host(p, words.data(), words.size(), base, 1);
  std::string first = bad.first.empty() ? "" : "at 0x" + kernels::hex64(bad.first[0].address).substr(2) + " xor " +
                                                   kernels::hex64(bad.first[0].expected ^ bad.first[0].got);
  return {{"rule", "probe.pattern_verify"},
          {"scenario", scenario},
          {"clean", outcome(clean.bad_words != 0, std::to_string(clean.bad_words) + " bad words")},
          {"corrupted", outcome(bad.bad_words != 0, std::to_string(bad.bad_words) + " bad word(s) " + first)}};
}

json collective() {
  const std::size_t n = 1 << 14;
  auto expected = [](std::size_t i) {  // an all-reduce's sum over 8 ranks of rank-dependent integers
    float v = 0;
    for (int r = 0; r < 8; ++r) v += static_cast<float>((i * 7 + r) % 64);
    std::uint32_t bits;
    std::memcpy(&bits, &v, 4);
    return bits;
  };
  std::vector<float> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t b = expected(i);
    std::memcpy(&out[i], &b, 4);
  }
  auto clean = collectives::compare_bits(collectives::DType::kF32, out.data(), n, expected);
  out[4097] = std::nextafter(out[4097], 1e9f);  // one ulp: a reduction that lost a bit
  auto bad = collectives::compare_bits(collectives::DType::kF32, out.data(), n, expected);
  return {{"rule", "probe.collective_bits"},
          {"scenario", "collectives.nccl: fp32 all-reduce of 8 ranks, element 4097 one ulp off"},
          {"clean", outcome(clean.wrong != 0, std::to_string(clean.wrong) + " wrong")},
          {"corrupted", outcome(bad.wrong != 0, std::to_string(bad.wrong) + " wrong, first at element " +
                                                    std::to_string(bad.first_index))}};
}

}  // namespace

int main() {
  json doc = {{"checks", json::array({gemm_exact(), gemm_tolerance(),
                                      pattern("device.memory: xorshift64* pattern, bit 17 of word 40000 flipped",
                                              kernels::MemPattern::kXorshift, 40000, 17),
                                      pattern("device.copy: device-to-host buffer, bit 63 of word 5 flipped",
                                              kernels::MemPattern::kAddressInAddress, 5, 63),
                                      collective()})}};
  std::cout << doc.dump() << "\n";
  return 0;
}
