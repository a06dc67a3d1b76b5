#pragma once
// The CUDA fat binary embedded by nvcc in `.nv_fatbin` (and `__nv_relfatbin` for -rdc objects): one or
// more containers (magic 0xBA55ED50), each a list of entries holding SASS (an ELF cubin for one sm_XY) or
// PTX (for one compute_XY, with its ISA version), possibly compressed. Layout as documented by
// n-eiling/cuda-fatbin-decompression and checked against nvcc/cuobjdump output in tests/checks/abi.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/byte_source.h"
#include "core/errors.h"

namespace gpucheck::abi {

struct FatbinError : InputError {
  using InputError::InputError;
};

enum class FatbinKind { kPtx = 1, kSass = 2, kOther = 0 };

struct FatbinEntry {
  FatbinKind kind = FatbinKind::kOther;
  unsigned raw_kind = 0;
  unsigned arch = 0;             // 80 for sm_80 / compute_80
  std::string suffix;            // "a" (arch-specific, sm_90a) or "f" (family, sm_100f) or ""
  unsigned ptx_major = 0, ptx_minor = 0;  // PTX ISA version of a PTX entry (9.0); cubin version for SASS
  bool compressed = false;
  std::uint64_t payload_size = 0;       // bytes stored
  std::uint64_t uncompressed_size = 0;  // bytes once decompressed (== payload_size when not compressed)
  std::uint64_t flags = 0;
  std::uint64_t offset = 0;             // of the entry header within the section

  /// "sm_80", "sm_90a", "compute_90"
  std::string target() const;
};

/// Parses a whole fatbin section (containers back to back, zero padding allowed between them), reading
/// only container and entry headers from `section` (payloads are skipped by their sizes).
/// Throws FatbinError on a bad magic, a size field pointing past the section, or an entry header
/// smaller than the fixed part; what the source throws when it cannot read passes through.
std::vector<FatbinEntry> parse_fatbin(const ByteSource& section);
std::vector<FatbinEntry> parse_fatbin(std::string_view section);

/// Fat binaries embedded in other data (libraries that register kernels themselves, e.g. cuFFT keeps
/// thousands in .ldata): scans 8-byte aligned positions for a container header whose sizes fit, parses
/// each one found. Returns the entries and the number of containers. `origin` is the file offset (or
/// address) of data[0]: positions are aligned on it. Reads the data in 64 KiB windows, skipping found
/// containers' payloads.
std::vector<FatbinEntry> scan_embedded_fatbins(const ByteSource& data, std::uint64_t origin, std::size_t* containers);
std::vector<FatbinEntry> scan_embedded_fatbins(std::string_view data, std::size_t* containers);

}  // namespace gpucheck::abi
