#include "checks/abi/fatbin_cache.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <charconv>
#include <string_view>

#include "core/files.h"
#include "core/text.h"

namespace gpucheck::abi {
namespace {

constexpr const char* kCacheMagic = "gpucheck-fatbin-entries 2";
constexpr std::size_t kMaxCacheBytes = std::size_t{64} << 20;  // cuFFT's ~24,000 entries are ~1.3 MB

// One entry as stored: fixed size, native byte order (the cache never leaves this machine). Binary, not text:
// parsing 5,737 lines of numbers cost more instructions than the header reads the cache saves.
struct Record {
  std::uint8_t kind, compressed;
  char suffix[2];
  std::uint32_t raw_kind, arch, ptx_major, ptx_minor, reserved;
  std::uint64_t payload_size, uncompressed_size, flags, offset;
};
static_assert(sizeof(Record) == 56, "a cache record is 56 bytes");

std::string fatbin_cache_file(const std::string& path, const std::string& section, const std::string& dir) {
  std::string base = dir.empty() ? cache_dir() : dir;
  if (base.empty()) return "";
  if (dir.empty()) base += "/fatbin";
  char name[32];
  std::snprintf(name, sizeof name, "%016zx", std::hash<std::string>{}(path + '\n' + section));
  return base + "/" + name + ".bin";
}

// What the remembered entries are valid for: the file by name and identity, and the section.
std::string key_of(const std::string& path, const std::string& section) {
  std::string id = file_identity(path);
  return id.empty() ? "" : path + "|" + id + "|" + section;
}

bool plain_suffix(const std::string& s) {
  return s.size() <= 2 && std::all_of(s.begin(), s.end(), [](unsigned char c) { return c >= 'a' && c <= 'z'; });
}

// "magic\nkey\ncount\n": what precedes the records.
std::string cache_header(const std::string& key, std::size_t count) {
  return std::string(kCacheMagic) + "\n" + key + "\n" + std::to_string(count) + "\n";
}

}  // namespace

std::optional<std::vector<FatbinEntry>> cached_fatbin(const std::string& path, const std::string& section,
                                                      const std::string& dir) {
  const std::string file = fatbin_cache_file(path, section, dir), key = key_of(path, section);
  struct stat st {};
  if (file.empty() || key.empty() || ::stat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  std::string bytes;
  try {
    bytes = read_file(file, kMaxCacheBytes);
  } catch (const InputError&) {
    return std::nullopt;
  }
  // The header names the count; the size must be exactly header + count records + "end\n" (a file cut short
  // or grown is parsed again).
  const std::string lead = std::string(kCacheMagic) + "\n" + key + "\n";
  if (bytes.compare(0, lead.size(), lead) != 0) return std::nullopt;
  const auto nl = bytes.find('\n', lead.size());
  if (nl == std::string::npos || nl == lead.size() || nl - lead.size() > 9) return std::nullopt;
  std::size_t count = 0;
  auto [q, ec] = std::from_chars(bytes.data() + lead.size(), bytes.data() + nl, count);
  if (ec != std::errc() || q != bytes.data() + nl) return std::nullopt;
  const std::size_t start = nl + 1;
  if (bytes.size() != start + count * sizeof(Record) + 4 || bytes.compare(bytes.size() - 4, 4, "end\n") != 0)
    return std::nullopt;
  std::vector<FatbinEntry> out(count);
  for (std::size_t i = 0; i < count; ++i) {
    Record r;
    std::memcpy(&r, bytes.data() + start + i * sizeof(Record), sizeof r);
    if (r.kind > 2 || r.compressed > 1 || r.reserved != 0) return std::nullopt;
    FatbinEntry& e = out[i];
    e.kind = static_cast<FatbinKind>(r.kind);
    e.compressed = r.compressed == 1;
    e.suffix.assign(r.suffix, r.suffix[1] ? 2 : r.suffix[0] ? 1 : 0);
    if (!plain_suffix(e.suffix) || (!r.suffix[0] && r.suffix[1])) return std::nullopt;
    e.raw_kind = r.raw_kind;
    e.arch = r.arch;
    e.ptx_major = r.ptx_major;
    e.ptx_minor = r.ptx_minor;
    e.payload_size = r.payload_size;
    e.uncompressed_size = r.uncompressed_size;
    e.flags = r.flags;
    e.offset = r.offset;
  }
  return out;
}

void remember_fatbin(const std::string& path, const std::string& section, const std::vector<FatbinEntry>& entries,
                     const std::string& dir) {
  const std::string file = fatbin_cache_file(path, section, dir), key = key_of(path, section);
  if (file.empty() || key.empty() || key.find('\n') != std::string::npos) return;
  std::string bytes = cache_header(key, entries.size());
  bytes.reserve(bytes.size() + entries.size() * sizeof(Record) + 4);
  for (const auto& e : entries) {
    if (!plain_suffix(e.suffix)) return;
    Record r{};
    r.kind = static_cast<std::uint8_t>(e.kind);
    r.compressed = e.compressed ? 1 : 0;
    for (std::size_t i = 0; i < e.suffix.size(); ++i) r.suffix[i] = e.suffix[i];
    r.raw_kind = e.raw_kind;
    r.arch = e.arch;
    r.ptx_major = e.ptx_major;
    r.ptx_minor = e.ptx_minor;
    r.payload_size = e.payload_size;
    r.uncompressed_size = e.uncompressed_size;
    r.flags = e.flags;
    r.offset = e.offset;
    bytes.append(reinterpret_cast<const char*>(&r), sizeof r);
  }
  bytes += "end\n";
  try {
    make_dirs(file.substr(0, file.find_last_of('/')));
    write_file_atomic(file, bytes);
  } catch (const InputError&) {
    // the entries are right; the next run reads the headers again
  }
}

}  // namespace gpucheck::abi
