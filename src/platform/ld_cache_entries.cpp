#include "platform/ld_cache_entries.h"

#include <cstdint>
#include <cstring>

namespace gpucheck::inventory {

namespace {
// Layout from glibc sysdeps/generic/dl-cache.h.
constexpr char kOldMagic[] = "ld.so-1.7.0";
constexpr char kNewMagic[] = "glibc-ld.so.cache1.1";
constexpr std::size_t kNewHeader = 48;  // magic[17] version[3] nlibs len_strings flags pad[3] ext_off unused[3]
constexpr std::size_t kNewEntry = 24;   // flags key value osversion hwcap(u64)
constexpr std::size_t kOldEntry = 12;   // flags key value

template <typename T>
T load(const std::string& b, std::size_t off) {
  T v{};
  if (off + sizeof(T) <= b.size()) std::memcpy(&v, b.data() + off, sizeof(T));
  return v;
}

std::string cstr(const std::string& b, std::size_t off) {
  if (off >= b.size()) return "";
  auto end = b.find('\0', off);
  return b.substr(off, end == std::string::npos ? std::string::npos : end - off);
}
}  // namespace

std::vector<LdCacheEntry> parse_ld_cache(const std::string& b) {
  std::vector<LdCacheEntry> out;
  std::size_t start = 0;
  if (b.compare(0, sizeof kOldMagic - 1, kOldMagic) == 0) {
    // Old format first; the new table (if any) follows, 8-aligned, and is preferred.
    auto nlibs = load<std::uint32_t>(b, 12);
    std::size_t after = 16 + static_cast<std::size_t>(nlibs) * kOldEntry;
    after = (after + 7) & ~std::size_t(7);
    if (b.compare(after, sizeof kNewMagic - 1, kNewMagic) == 0) {
      start = after;
    } else {
      for (std::uint32_t i = 0; i < nlibs; ++i) {
        std::size_t e = 16 + i * kOldEntry;
        if (e + kOldEntry > b.size()) break;
        // Old-format string offsets are relative to the string table after the entries.
        out.push_back({cstr(b, 16 + nlibs * kOldEntry + load<std::uint32_t>(b, e + 4)),
                       cstr(b, 16 + nlibs * kOldEntry + load<std::uint32_t>(b, e + 8)), load<std::int32_t>(b, e)});
      }
      return out;
    }
  } else if (b.compare(0, sizeof kNewMagic - 1, kNewMagic) != 0) {
    return out;
  }
  auto nlibs = load<std::uint32_t>(b, start + 20);
  for (std::uint32_t i = 0; i < nlibs; ++i) {
    std::size_t e = start + kNewHeader + static_cast<std::size_t>(i) * kNewEntry;
    if (e + kNewEntry > b.size()) break;
    // New-format string offsets are relative to the start of the new header.
    out.push_back({cstr(b, start + load<std::uint32_t>(b, e + 4)), cstr(b, start + load<std::uint32_t>(b, e + 8)),
                   load<std::int32_t>(b, e)});
  }
  return out;
}

bool is_native_entry(const LdCacheEntry& e) {
  constexpr int kTypeMask = 0x00ff, kLibc6 = 0x0003, kArchMask = 0xff00;
#if defined(__x86_64__)
  constexpr int kArch = 0x0300;  // FLAG_X8664_LIB64
#elif defined(__aarch64__)
  constexpr int kArch = 0x0a00;  // FLAG_AARCH64_LIB64
#else
  constexpr int kArch = -1;
#endif
  return (e.flags & kTypeMask) == kLibc6 && (kArch < 0 || (e.flags & kArchMask) == kArch);
}

}  // namespace gpucheck::inventory
