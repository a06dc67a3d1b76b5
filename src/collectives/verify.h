#pragma once
// Bit-exact comparison of an output buffer against expected bits computed element by element, so no
// second buffer of the output's size is needed. Counts every wrong element and keeps the first.
#include <cstddef>
#include <cstdint>
#include <functional>

#include "collectives/dtype.h"

namespace gpucheck::collectives {

struct Mismatch {
  std::size_t wrong = 0;
  std::int64_t first_index = -1;  // -1: none
  std::uint32_t expected_bits = 0, got_bits = 0;

  void merge(const Mismatch& other, std::size_t index_offset);
};

/// Compares `count` elements of `data` with expected(i) bit for bit.
Mismatch compare_bits(DType t, const void* data, std::size_t count,
                      const std::function<std::uint32_t(std::size_t)>& expected);

}  // namespace gpucheck::collectives
