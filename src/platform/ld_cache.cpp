#include "platform/ld_cache.h"

#include <sys/stat.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "core/bytes.h"
#include "core/errors.h"
#include "core/regular_file.h"

namespace gpucheck::platform {
namespace {

// glibc sysdeps/generic/dl-cache.h
constexpr char kOldMagic[] = "ld.so-1.7.0";
constexpr char kNewMagic[] = "glibc-ld.so.cache";
constexpr char kNewVersion[] = "1.1";
constexpr std::size_t kOldHeader = 12 + 4;      // magic[11] padded + nlibs
constexpr std::size_t kOldEntry = 12;           // flags, key, value
constexpr std::size_t kNewHeader = 48;          // magic, version, nlibs, len_strings, flags, pad, ext, unused
constexpr std::size_t kNewEntry = 24;           // flags, key, value, osversion, hwcap
constexpr std::int32_t kFlagElfLibc6 = 0x0003;
constexpr std::int32_t kFlagTypeMask = 0x00ff;
constexpr std::int32_t kFlagX8664Lib64 = 0x0300;
constexpr std::int32_t kFlagAarch64Lib64 = 0x0a00;

}  // namespace

std::int32_t host_cache_flags() {
#if defined(__x86_64__)
  return kFlagElfLibc6 | kFlagX8664Lib64;
#elif defined(__aarch64__)
  return kFlagElfLibc6 | kFlagAarch64Lib64;
#else
  return kFlagElfLibc6;
#endif
}

bool is_host_entry(const LdCacheEntry& e) {
  // glibc _dl_cache_libcmp + flag check: same ELF type, and this machine's multilib flavour.
  const std::int32_t want = host_cache_flags();
  return (e.flags & kFlagTypeMask) == (want & kFlagTypeMask) && (e.flags & ~kFlagTypeMask) == (want & ~kFlagTypeMask);
}

LdCache LdCache::empty(const std::string& origin) {
  LdCache c;
  c.origin_ = origin;
  return c;
}

LdCache LdCache::parse(std::string_view b, const std::string& origin) {
  LdCache c = empty(origin);
  auto bad = [&](const std::string& why) { return InputError(origin + ": malformed ld.so cache: " + why); };
  // A NUL-terminated string at `base + off`, inside the file.
  auto str = [&](std::size_t base, std::uint32_t off) -> std::string {
    std::uint64_t at = base + std::uint64_t(off);
    if (at >= b.size()) throw bad("string offset " + std::to_string(off) + " outside the file");
    std::size_t end = b.find('\0', static_cast<std::size_t>(at));
    if (end == std::string_view::npos) throw bad("unterminated string");
    return std::string(b.substr(static_cast<std::size_t>(at), end - static_cast<std::size_t>(at)));
  };
  std::size_t base = 0;
  if (b.size() >= kOldHeader && b.compare(0, sizeof kOldMagic - 1, kOldMagic) == 0) {
    // Old table first; the new-format table follows it, 8-byte aligned, and is the one the loader uses.
    std::uint32_t nold = load_unaligned<std::uint32_t>(b, 12);
    std::uint64_t end = kOldHeader + std::uint64_t(nold) * kOldEntry;
    if (end > b.size()) throw bad("old-format table larger than the file");
    base = static_cast<std::size_t>((end + 7) & ~std::uint64_t(7));
    if (b.size() < base + sizeof kNewMagic - 1 || b.compare(base, sizeof kNewMagic - 1, kNewMagic) != 0) {
      // Old format alone (ldconfig -c old): string offsets are relative to the end of the table.
      c.entries_.reserve(nold);
      for (std::uint32_t i = 0; i < nold; ++i) {
        std::size_t e = kOldHeader + std::size_t(i) * kOldEntry;
        LdCacheEntry entry;
        entry.flags = load_unaligned<std::int32_t>(b, e);
        entry.name = str(static_cast<std::size_t>(end), load_unaligned<std::uint32_t>(b, e + 4));
        entry.path = str(static_cast<std::size_t>(end), load_unaligned<std::uint32_t>(b, e + 8));
        c.entries_.push_back(std::move(entry));
      }
      return c;
    }
  }
  if (b.size() < base + kNewHeader || b.compare(base, sizeof kNewMagic - 1, kNewMagic) != 0)
    throw bad("no \"glibc-ld.so.cache\" header");
  if (b.compare(base + 17, 3, kNewVersion) != 0) throw bad("unsupported version (expected 1.1)");
  std::uint32_t nlibs = load_unaligned<std::uint32_t>(b, base + 20);
  std::uint64_t entries_end = base + kNewHeader + std::uint64_t(nlibs) * kNewEntry;
  if (entries_end > b.size()) throw bad(std::to_string(nlibs) + " entries do not fit in " + std::to_string(b.size()) + " bytes");
  // String offsets in the new format are relative to the start of the new header (glibc: cache_new).
  c.entries_.reserve(nlibs);
  for (std::uint32_t i = 0; i < nlibs; ++i) {
    std::size_t e = base + kNewHeader + std::size_t(i) * kNewEntry;
    LdCacheEntry entry;
    entry.flags = load_unaligned<std::int32_t>(b, e);
    entry.name = str(base, load_unaligned<std::uint32_t>(b, e + 4));
    entry.path = str(base, load_unaligned<std::uint32_t>(b, e + 8));
    entry.hwcap = load_unaligned<std::uint64_t>(b, e + 16);
    c.entries_.push_back(std::move(entry));
  }
  return c;
}

LdCache LdCache::load(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return empty(path + " (absent)");
  // A device or FIFO is never opened (open_regular_file): as root, opening one can have effects.
  if (!S_ISREG(st.st_mode)) throw InputError(path + ": not a regular file (an ld.so cache is one)");
  return parse(read_regular_file(path, std::size_t{64} << 20), path);
}

std::optional<std::string> LdCache::lookup(std::string_view soname) const {
  for (const auto& e : entries_) {
    if (e.name != soname || !is_host_entry(e)) continue;
    if (e.hwcap != 0) continue;  // glibc-hwcaps / legacy hwcap variants: not modelled (docs/abi.md)
    return e.path;
  }
  return std::nullopt;
}

}  // namespace gpucheck::platform
