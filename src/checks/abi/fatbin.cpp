#include "checks/abi/fatbin.h"

#include <cstring>

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

std::vector<FatbinEntry> parse_fatbin(std::string_view b) {
  std::vector<FatbinEntry> out;
  std::size_t pos = 0;
  while (pos < b.size()) {
    if (b.size() - pos < kContainerHeader) {
      bool zeros = b.find_first_not_of('\0', pos) == std::string_view::npos;
      if (zeros) break;
      throw FatbinError("fatbin: " + std::to_string(b.size() - pos) + " stray bytes at offset " + std::to_string(pos));
    }
    std::uint32_t magic = load_unaligned<std::uint32_t>(b, pos);
    if (magic == 0) {  // alignment padding between containers
      pos += 8;
      continue;
    }
    if (magic != kMagic) {
      char hex[16];
      std::snprintf(hex, sizeof hex, "0x%08X", magic);
      throw FatbinError("fatbin: bad magic " + std::string(hex) + " at offset " + std::to_string(pos) + " (expected 0xBA55ED50)");
    }
    std::uint16_t header_size = load_unaligned<std::uint16_t>(b, pos + 6);
    std::uint64_t payload = load_unaligned<std::uint64_t>(b, pos + 8);
    if (header_size < kContainerHeader || header_size > b.size() - pos)
      throw FatbinError("fatbin: container header size " + std::to_string(header_size) + " at offset " + std::to_string(pos) + " is invalid");
    std::size_t body = pos + header_size;
    if (payload > b.size() - body)
      throw FatbinError("fatbin: container at offset " + std::to_string(pos) + " claims " + std::to_string(payload) +
                        " bytes but only " + std::to_string(b.size() - body) + " remain");
    std::size_t end = body + static_cast<std::size_t>(payload);
    std::size_t e = body;
    while (e < end) {
      if (end - e < kEntryFixed)
        throw FatbinError("fatbin: entry header at offset " + std::to_string(e) + " is cut short");
      FatbinEntry en;
      en.offset = e;
      en.raw_kind = load_unaligned<std::uint16_t>(b, e);
      en.kind = en.raw_kind == 1 ? FatbinKind::kPtx : en.raw_kind == 2 ? FatbinKind::kSass : FatbinKind::kOther;
      std::uint32_t entry_header = load_unaligned<std::uint32_t>(b, e + 4);
      std::uint64_t size = load_unaligned<std::uint64_t>(b, e + 8);
      std::uint32_t compressed_size = load_unaligned<std::uint32_t>(b, e + 16);
      en.ptx_minor = load_unaligned<std::uint16_t>(b, e + 24);
      en.ptx_major = load_unaligned<std::uint16_t>(b, e + 26);
      en.arch = load_unaligned<std::uint32_t>(b, e + 28);
      en.flags = load_unaligned<std::uint64_t>(b, e + 40);
      std::uint64_t decompressed = load_unaligned<std::uint64_t>(b, e + 56);
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
      e += entry_header + static_cast<std::size_t>(size);
    }
    pos = end;
  }
  return out;
}

std::vector<FatbinEntry> scan_embedded_fatbins(std::string_view data, std::size_t* containers) {
  std::vector<FatbinEntry> out;
  std::size_t found = 0;
  const std::size_t align = 8;
  std::size_t start = (align - reinterpret_cast<std::uintptr_t>(data.data()) % align) % align;
  for (std::size_t pos = start; pos + kContainerHeader <= data.size();) {
    if (load_unaligned<std::uint32_t>(data, pos) != kMagic || load_unaligned<std::uint16_t>(data, pos + 4) != 1 ||
        load_unaligned<std::uint16_t>(data, pos + 6) != kContainerHeader) {
      pos += align;
      continue;
    }
    std::uint64_t size = load_unaligned<std::uint64_t>(data, pos + 8);
    if (size > data.size() - pos - kContainerHeader) {
      pos += align;
      continue;
    }
    try {
      auto entries = parse_fatbin(data.substr(pos, kContainerHeader + static_cast<std::size_t>(size)));
      for (auto& e : entries) e.offset += pos;
      out.insert(out.end(), entries.begin(), entries.end());
      ++found;
      pos += (kContainerHeader + static_cast<std::size_t>(size) + align - 1) / align * align;
    } catch (const FatbinError&) {
      pos += align;  // the magic number appeared by chance in unrelated data
    }
  }
  if (containers) *containers = found;
  return out;
}

}  // namespace gpucheck::abi
