#pragma once
// Inputs whose reductions are exact in any order. For a sum over C contributors every element is
// q * 2^e with an integer q, |q| <= M, and at most floor(2^p / M) contributors (p = significand bits) are
// non-zero at any one index (a window that rotates with the index, so every rank still contributes
// somewhere). Then every partial sum, in any order or tree shape, is an integer multiple of 2^e no larger
// than 2^p in magnitude, i.e. exactly representable: the reduced bits are unique and checkable with ==.
// Copies (all-gather, broadcast) use raw hash bits, so every bit of every element is exercised.
#include <cstddef>
#include <cstdint>

#include "collectives/dtype.h"

namespace gpucheck::collectives {

std::uint64_t mix64(std::uint64_t x);  // splitmix64 finaliser

struct Pattern {
  DType dtype = DType::kF32;
  RedOp redop = RedOp::kNone;  // kNone: raw bits for copies
  std::uint64_t seed = 1;
  int contributors = 1;        // C: ranks (x2 on the accumulation path)
  int world = 1;               // W, the divisor of avg
  bool flag = false;           // uint8 overflow flag: exactly one contributor (or none) sets 1
  bool flag_none = false;      // with flag: nobody sets it (expected 0)

  /// Per-contributor magnitude bound M and window: fp32 2^12 / 4096, fp16 2^5 / 64, bf16 2^3 / 32.
  std::int64_t magnitude() const;
  int window() const;
  /// Power-of-two scale e shared by all elements of the case (derived from the seed, kept normal).
  int exponent() const;

  /// Integer numerator of contributor c's element i (reductions only).
  std::int64_t numerator(int c, std::size_t i) const;
  /// Bits of contributor c's element i as the dtype stores it (reductions: encode(q*2^e); copies: raw).
  std::uint32_t bits(int c, std::size_t i) const;
  /// Exact expected bits of the reduction over contributors [first, first+count) at element i.
  std::uint32_t reduced_bits(int first, int count, std::size_t i) const;
  /// What --corrupt-rank writes instead of bits(c, i): always a different value (sign/top bit flipped,
  /// zero replaced by one unit; for max a value above every generated one), so the result changes.
  std::uint32_t corrupted(std::uint32_t bits) const;
};

/// Whether avg can be checked bit-exactly: W a power of two (pre-multiplying by 1/W is then exact).
bool avg_is_exact(int world);

}  // namespace gpucheck::collectives
