#include "checks/abi/fatbin.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "core/byte_source.h"
#include "core/bytes.h"

namespace gpucheck::abi {
namespace {

constexpr std::uint32_t kMagic = 0xBA55ED50;
constexpr std::size_t kContainerHeader = 16;  // magic u32, version u16, header_size u16, payload size u64
constexpr std::size_t kEntryFixed = 64;       // fields below, through decompressed_size
constexpr std::uint64_t kFlagCompressedLz4 = 0x2000;      // n-eiling/cuda-fatbin-decompression
constexpr std::uint64_t kFlagCompressedNew = 0x8000;      // CUDA 13 nvcc (-Xfatbin -compress-all, PTX by default)
constexpr std::uint64_t kFlagArchSpecific = 0x100000;     // sm_90a
constexpr std::uint64_t kFlagFamilySpecific = 0x200000;   // sm_100f


}  // namespace

std::string FatbinEntry::target() const {
  return std::string(kind == FatbinKind::kPtx ? "compute_" : "sm_") + std::to_string(arch) + suffix;
}

std::vector<FatbinEntry> parse_fatbin(const ByteSource& src) {
  // Only the 16-byte container headers and the 64-byte entry headers are read; payloads are skipped.
  std::vector<FatbinEntry> out;
  const std::uint64_t n = src.size();
  std::uint64_t pos = 0;
  char buf[kEntryFixed];
  // 4 KiB windows: libcublasLt's 2,782 containers and 5,737 entries (median payload 1.4 KB) cost 2,298
  // reads instead of 8,519.
  WindowedReader in(src, 4096);
  while (pos < n) {
    if (n - pos < kContainerHeader) {
      in.read(pos, buf, static_cast<std::size_t>(n - pos));
      std::string_view rest(buf, static_cast<std::size_t>(n - pos));
      if (rest.find_first_not_of('\0') == std::string_view::npos) break;
      throw FatbinError("fatbin: " + std::to_string(n - pos) + " stray bytes at offset " + std::to_string(pos));
    }
    in.read(pos, buf, kContainerHeader);
    std::string_view h(buf, kContainerHeader);
    std::uint32_t magic = load_unaligned<std::uint32_t>(h, 0);
    if (magic == 0) {  // alignment padding between containers
      pos += 8;
      continue;
    }
    if (magic != kMagic) {
      char hex[16];
      std::snprintf(hex, sizeof hex, "0x%08X", magic);
      throw FatbinError("fatbin: bad magic " + std::string(hex) + " at offset " + std::to_string(pos) + " (expected 0xBA55ED50)");
    }
    std::uint16_t header_size = load_unaligned<std::uint16_t>(h, 6);
    std::uint64_t payload = load_unaligned<std::uint64_t>(h, 8);
    if (header_size < kContainerHeader || header_size > n - pos)
      throw FatbinError("fatbin: container header size " + std::to_string(header_size) + " at offset " + std::to_string(pos) + " is invalid");
    std::uint64_t body = pos + header_size;
    if (payload > n - body)
      throw FatbinError("fatbin: container at offset " + std::to_string(pos) + " claims " + std::to_string(payload) +
                        " bytes but only " + std::to_string(n - body) + " remain");
    std::uint64_t end = body + payload;
    std::uint64_t e = body;
    while (e < end) {
      if (end - e < kEntryFixed)
        throw FatbinError("fatbin: entry header at offset " + std::to_string(e) + " is cut short");
      in.read(e, buf, kEntryFixed);
      std::string_view b(buf, kEntryFixed);
      FatbinEntry en;
      en.offset = e;
      en.raw_kind = load_unaligned<std::uint16_t>(b, 0);
      en.kind = en.raw_kind == 1 ? FatbinKind::kPtx : en.raw_kind == 2 ? FatbinKind::kSass : FatbinKind::kOther;
      std::uint32_t entry_header = load_unaligned<std::uint32_t>(b, 4);
      std::uint64_t size = load_unaligned<std::uint64_t>(b, 8);
      std::uint32_t compressed_size = load_unaligned<std::uint32_t>(b, 16);
      en.ptx_minor = load_unaligned<std::uint16_t>(b, 24);
      en.ptx_major = load_unaligned<std::uint16_t>(b, 26);
      en.arch = load_unaligned<std::uint32_t>(b, 28);
      en.flags = load_unaligned<std::uint64_t>(b, 40);
      std::uint64_t decompressed = load_unaligned<std::uint64_t>(b, 56);
      if (entry_header < kEntryFixed || entry_header > end - e)
        throw FatbinError("fatbin: entry at offset " + std::to_string(e) + " has header size " + std::to_string(entry_header));
      if (size > end - e - entry_header)
        throw FatbinError("fatbin: entry at offset " + std::to_string(e) + " claims " + std::to_string(size) +
                          " payload bytes past the end of its container");
      en.compressed = (en.flags & (kFlagCompressedLz4 | kFlagCompressedNew)) != 0;
      if (en.compressed && compressed_size > size)
        throw FatbinError("fatbin: entry at offset " + std::to_string(e) + " has compressed size larger than its payload");
      en.payload_size = en.compressed ? compressed_size : size;
      en.uncompressed_size = en.compressed ? decompressed : size;
      if (en.flags & kFlagArchSpecific) en.suffix = "a";
      else if (en.flags & kFlagFamilySpecific) en.suffix = "f";
      out.push_back(en);
      e += entry_header + size;
    }
    pos = end;
  }
  return out;
}

std::vector<FatbinEntry> parse_fatbin(std::string_view section) { return parse_fatbin(MemorySource(section)); }

std::vector<FatbinEntry> scan_embedded_fatbins(const ByteSource& data, std::uint64_t origin, std::size_t* containers) {
  std::vector<FatbinEntry> out;
  std::size_t found = 0;
  constexpr std::uint64_t kAlign = 8;
  constexpr std::size_t kWindow = 64 * 1024;  // read in windows: the memory used stays small whatever the size
  std::string window;
  std::uint64_t window_at = 0;
  const std::uint64_t n = data.size();
  for (std::uint64_t pos = (kAlign - origin % kAlign) % kAlign; pos + kContainerHeader <= n;) {
    if (pos < window_at || pos + kContainerHeader > window_at + window.size()) {
      window.resize(static_cast<std::size_t>(std::min<std::uint64_t>(kWindow, n - pos)));
      data.read(pos, window.data(), window.size());
      window_at = pos;
    }
    std::string_view w(window);
    std::size_t at = static_cast<std::size_t>(pos - window_at);
    if (load_unaligned<std::uint32_t>(w, at) != kMagic || load_unaligned<std::uint16_t>(w, at + 4) != 1 ||
        load_unaligned<std::uint16_t>(w, at + 6) != kContainerHeader) {
      pos += kAlign;
      continue;
    }
    std::uint64_t size = load_unaligned<std::uint64_t>(w, at + 8);
    if (size > n - pos - kContainerHeader) {
      pos += kAlign;
      continue;
    }
    try {
      auto entries = parse_fatbin(SubSource(data, pos, kContainerHeader + size));
      for (auto& e : entries) e.offset += pos;
      out.insert(out.end(), entries.begin(), entries.end());
      ++found;
      pos += (kContainerHeader + size + kAlign - 1) / kAlign * kAlign;
    } catch (const FatbinError&) {
      pos += kAlign;  // the magic number appeared by chance in unrelated data
    }
  }
  if (containers) *containers = found;
  return out;
}

std::vector<FatbinEntry> scan_embedded_fatbins(std::string_view data, std::size_t* containers) {
  return scan_embedded_fatbins(MemorySource(data), reinterpret_cast<std::uintptr_t>(data.data()), containers);
}

}  // namespace gpucheck::abi
