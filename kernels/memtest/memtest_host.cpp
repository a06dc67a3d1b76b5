#include "memtest/memtest_host.h"

#include <cstdio>
#include "core/rule_switch.h"

namespace gpucheck::kernels {

const char* to_string(MemPattern p) {
  switch (p) {
    case MemPattern::kWalkingOnes: return "walking_ones";
    case MemPattern::kWalkingZeros: return "walking_zeros";
    case MemPattern::kAddressInAddress: return "address_in_address";
    case MemPattern::kXorshift: return "xorshift";
  }
  return "unknown";
}

std::string hex64(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string describe(const PatternSpec& p) {
  std::string s = to_string(p.kind);
  if (p.kind == MemPattern::kXorshift) return s + " seed " + hex64(p.seed);
  return s + " pass " + std::to_string(p.pass);
}

std::vector<PatternSpec> memtest_plan(const std::string& level) {
  std::uint32_t walking = level == "quick" ? 1 : level == "long" ? 64 : 4;
  std::uint32_t polarities = level == "quick" ? 1 : 2;
  std::uint32_t seeds = level == "quick" ? 1 : level == "long" ? 8 : 2;
  std::vector<PatternSpec> plan;
  for (std::uint32_t i = 0; i < walking; ++i) plan.push_back({MemPattern::kWalkingOnes, i, 0});
  for (std::uint32_t i = 0; i < walking; ++i) plan.push_back({MemPattern::kWalkingZeros, i, 0});
  for (std::uint32_t i = 0; i < polarities; ++i) plan.push_back({MemPattern::kAddressInAddress, i, 0});
  for (std::uint32_t i = 0; i < seeds; ++i) plan.push_back({MemPattern::kXorshift, 0, 0x5eed0000ULL + i});
  return plan;
}

void fill_host(const PatternSpec& p, std::uint64_t* words, std::size_t n, std::uint64_t base) {
  for (std::size_t i = 0; i < n; ++i) words[i] = pattern_word(p, i, base + i * 8);
}

VerifyResult verify_host(const PatternSpec& p, const std::uint64_t* words, std::size_t n, std::uint64_t base,
                         std::size_t keep) {
  VerifyResult r;
  if (rule_disabled("probe.pattern_verify")) return r;  // gpucheck selftest's hook (core/rule_switch.h)
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t want = pattern_word(p, i, base + i * 8);
    if (words[i] == want) continue;
    ++r.bad_words;
    if (r.first.size() < keep) r.first.push_back({base + i * 8, want, words[i]});
  }
  return r;
}

}  // namespace gpucheck::kernels
