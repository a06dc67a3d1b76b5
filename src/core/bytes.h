#pragma once
// Reading binary formats (ELF notes, fatbins, ld.so.cache) without alignment or aliasing traps.
#include <cstddef>
#include <cstring>
#include <string_view>

namespace gpucheck {

/// The T stored at byte offset `off` of `b`; the caller has checked that off + sizeof(T) <= b.size().
template <typename T>
T load_unaligned(std::string_view b, std::size_t off) {
  T v;
  std::memcpy(&v, b.data() + off, sizeof v);
  return v;
}

}  // namespace gpucheck
