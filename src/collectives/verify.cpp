#include "collectives/verify.h"
#include "core/rule_switch.h"

namespace gpucheck::collectives {

void Mismatch::merge(const Mismatch& other, std::size_t index_offset) {
  if (other.wrong && first_index < 0) {
    first_index = other.first_index + static_cast<std::int64_t>(index_offset);
    expected_bits = other.expected_bits;
    got_bits = other.got_bits;
  }
  wrong += other.wrong;
}

Mismatch compare_bits(DType t, const void* data, std::size_t count,
                      const std::function<std::uint32_t(std::size_t)>& expected) {
  Mismatch m;
  if (rule_disabled("probe.collective_bits")) return m;  // gpucheck selftest's hook (core/rule_switch.h)
  for (std::size_t i = 0; i < count; ++i) {
    std::uint32_t want = expected(i);
    std::uint32_t got = load_bits(t, data, i);
    if (got != want) {
      if (m.first_index < 0) {
        m.first_index = static_cast<std::int64_t>(i);
        m.expected_bits = want;
        m.got_bits = got;
      }
      ++m.wrong;
    }
  }
  return m;
}

}  // namespace gpucheck::collectives
