#pragma once
// device.memory's patterns: the value every 64-bit word of a chunk must hold, computed from the word's
// index and address alone, so the GPU fills and verifies in parallel with no table and the CPU tests run
// the same definitions (GK_HD) on host buffers, including a planted bit flip.
#include <cstdint>

#include "common/hd.h"

namespace gpucheck::kernels {

enum class MemPattern : std::uint32_t {
  kWalkingOnes = 0,     // one set bit, moving with the word index and the pass: stuck-at-0 bits, coupling
  kWalkingZeros = 1,    // one clear bit, the complement: stuck-at-1 bits
  kAddressInAddress = 2,  // each word holds its own address (odd passes: its complement): address-line faults
  kXorshift = 3,        // xorshift64* of (seed, index): data-dependent faults no regular pattern hits
};

struct PatternSpec {
  MemPattern kind = MemPattern::kWalkingOnes;
  std::uint32_t pass = 0;   // shifts the walking bit; odd inverts address-in-address
  std::uint64_t seed = 0;   // xorshift only
};

/// xorshift64* (Vigna 2016) applied to a per-word counter, so the value of word i needs no predecessor.
GK_HD std::uint64_t xorshift64star(std::uint64_t x) {
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  return x * 0x2545F4914F6CDD1DULL;
}

/// The value word `index` (at byte address `address`) must hold under `p`.
GK_HD std::uint64_t pattern_word(const PatternSpec& p, std::uint64_t index, std::uint64_t address) {
  switch (p.kind) {
    case MemPattern::kWalkingOnes: return 1ULL << ((index + p.pass) & 63u);
    case MemPattern::kWalkingZeros: return ~(1ULL << ((index + p.pass) & 63u));
    case MemPattern::kAddressInAddress: return (p.pass & 1u) ? ~address : address;
    case MemPattern::kXorshift:
    default:
      // The counter never starts at 0 (xorshift's fixed point) for any seed: the golden-ratio step is odd.
      return xorshift64star((p.seed ^ 0x9E3779B97F4A7C15ULL) + (index + 1) * 0x9E3779B97F4A7C15ULL);
  }
}

/// One wrong word: where, what it should be, what was read.
struct BadWord {
  std::uint64_t address = 0;
  std::uint64_t expected = 0;
  std::uint64_t got = 0;
};

}  // namespace gpucheck::kernels
