#pragma once
// Host side of device.memory: the pattern plan per level, filling and verifying a host buffer with the same
// definitions the GPU uses (what the tests exercise), and the bad-address bookkeeping per pattern.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "memtest/memtest_patterns.h"

namespace gpucheck::kernels {

const char* to_string(MemPattern p);
/// "walking_ones pass 3", "xorshift seed 0x2a"
std::string describe(const PatternSpec& p);

/// The patterns a level runs, in order: quick one pass of each; standard 4 walking passes, both
/// address polarities, 2 seeds; long 64 walking passes (every bit position), 8 seeds.
std::vector<PatternSpec> memtest_plan(const std::string& level);

/// The result of verifying one pattern: how many words were wrong and the first `keep` of them.
struct VerifyResult {
  std::uint64_t bad_words = 0;
  std::vector<BadWord> first;
};

/// Writes pattern `p` into `n` words starting at `words` (word 0 is at byte address `base`).
void fill_host(const PatternSpec& p, std::uint64_t* words, std::size_t n, std::uint64_t base);
/// Compares `n` words with pattern `p`, keeping the first `keep` bad words.
VerifyResult verify_host(const PatternSpec& p, const std::uint64_t* words, std::size_t n, std::uint64_t base,
                         std::size_t keep);

/// Which bits differ, as the hexadecimal XOR ("0x0000000000000100").
std::string hex64(std::uint64_t v);

}  // namespace gpucheck::kernels
