#pragma once
// One ELF shared object or executable opened through libelf: what the dynamic loader and the ABI audit
// need from it. The file is never mapped: libelf preads the headers and the sections asked for (dynamic,
// symbol, version and hash tables), everything else is read on demand through read() (pread), so a
// 500 MB library costs its tables, and a file truncated while read is an ElfError, never a SIGBUS.
// String views point into libelf's copies of the tables and live as long as the object.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/byte_source.h"
#include "core/errors.h"

struct Elf;  // libelf handle (libelf.h)

namespace gpucheck::platform {

/// A file that is not a usable ELF object (truncated, wrong class, overlapping sections, ...). It is an
/// InputError so a single bad target given on the command line is exit 2; in a directory scan it is
/// recorded per file and the scan goes on.
struct ElfError : InputError {
  using InputError::InputError;
};

struct DynSymbol {
  std::string_view name;
  std::string_view version;       // "GLIBCXX_3.4.30", empty when unversioned
  std::string_view version_file;  // for an undefined symbol: the library the version is required from
  bool defined = false;
  bool weak = false;
  bool hidden_version = false;    // defined as name@VER (not the default name@@VER)
  bool exported = false;          // defined, global/weak/unique binding, default or protected visibility
  unsigned char type = 0;         // STT_*
};

struct VersionNeed {
  std::string_view file;     // "libstdc++.so.6"
  std::string_view version;  // "GLIBCXX_3.4.30"
  bool weak = false;         // VER_FLG_WEAK: a missing version is only a warning for the loader
};

struct Section {
  std::string name;
  std::uint32_t type = 0;
  std::uint64_t offset = 0, size = 0;
};

class ElfObject final : public ByteSource {
 public:
  /// Opens and validates `path`. Throws ElfError with a one-line reason.
  static std::unique_ptr<ElfObject> open(const std::string& path);
  /// Does the file start with the ELF magic (any class, machine or type)? False when unreadable.
  static bool is_elf_file(const std::string& path);
  /// "" when the file starts with the ELF magic; else why not: the reason it cannot be read
  /// ("Permission denied"), or "not an ELF file".
  static std::string not_elf_reason(const std::string& path);
  /// Cheap check used while searching directories: is this an ELF of the host's class and machine?
  /// Returns "" when it is, else why not ("ELFCLASS32", "machine 183", "not an ELF file").
  static std::string loadable_mismatch(const std::string& path);
  /// DT_SONAME of an ELF file of any class or machine (an image under --root may be another
  /// architecture's), read through libelf from the headers and .dynamic/.dynstr only (pread, ~11 KB for
  /// a 500 MB libcublasLt). Never throws: "" when the
  /// file has no SONAME, is not ELF or cannot be read (the inventory lists such files without one).
  static std::string read_soname(const std::string& path);

  ~ElfObject() override;
  ElfObject(const ElfObject&) = delete;
  ElfObject& operator=(const ElfObject&) = delete;

  const std::string& path() const { return path_; }
  std::uint16_t elf_type() const { return elf_type_; }  // ET_DYN, ET_EXEC, ET_REL
  std::string_view soname() const { return soname_; }
  const std::vector<std::string_view>& needed() const { return needed_; }
  const std::vector<std::string_view>& rpath() const { return rpath_; }     // DT_RPATH, split on ':'
  const std::vector<std::string_view>& runpath() const { return runpath_; } // DT_RUNPATH, split on ':'
  bool has_runpath() const { return has_runpath_; }
  bool has_rpath() const { return has_rpath_; }
  bool nodeflib() const { return nodeflib_; }  // DF_1_NODEFLIB: no ld.so.cache, no default dirs
  bool has_versym() const { return has_versym_; }
  const std::vector<std::string_view>& version_definitions() const { return verdefs_; }
  const std::vector<VersionNeed>& version_needs() const { return verneeds_; }
  const std::vector<DynSymbol>& symbols() const { return symbols_; }
  /// glibc's dl_new_hash (DJB hash, 32 bit), the key of DT_GNU_HASH.
  static std::uint32_t gnu_hash(std::string_view name) {
    std::uint32_t h = 5381;
    for (unsigned char c : name) h = h * 33 + c;
    return h;
  }
  const std::vector<Section>& sections() const { return sections_; }
  std::uint64_t file_size() const { return file_size_; }

  /// The file's bytes, read with pread (ByteSource). Throws ElfError naming the file when they cannot be
  /// read, e.g. "changed while read" when it was truncated after open (a build or pip rewriting it).
  std::uint64_t size() const override { return file_size_; }
  void read(std::uint64_t off, void* dst, std::size_t n) const override;
  /// The named section as a window of the file (size 0 when absent or NOBITS); bounds were checked at open.
  SubSource section_source(const std::string& name) const;
  /// Bytes of the named section copied into memory ("" when absent or NOBITS): for small sections.
  std::string section_bytes(const std::string& name) const;

  /// Calls f(const DynSymbol&) for each exported definition of `name`; returns early when f returns
  /// true. Uses the object's DT_GNU_HASH table (bloom filter first, as ld.so does) with `hash` =
  /// gnu_hash(name); objects without one fall back to a map built on first use.
  template <typename F>
  bool any_definition(std::string_view name, std::uint32_t hash, F f) const;
  bool has_gnu_hash() const { return gnu_.nbuckets != 0; }
  bool defines_version(std::string_view version) const;

 private:
  ElfObject() = default;
  void load();
  void read_sections();
  void read_dynamic();
  void read_versions();
  void read_symbols();
  void read_gnu_hash();
  const std::vector<std::uint32_t>* definitions(std::string_view name) const;
  struct GnuHashTable {
    std::uint32_t nbuckets = 0, symoffset = 0, bloom_size = 0, bloom_shift = 0;
    const char* bloom = nullptr;    // bloom_size 64-bit words
    const char* buckets = nullptr;  // nbuckets 32-bit words
    const char* chain = nullptr;    // nchain 32-bit words
    std::uint32_t nchain = 0;
  } gnu_;

  std::string path_;
  int fd_ = -1;
  ::Elf* elf_ = nullptr;
  std::uint64_t file_size_ = 0;
  std::uint16_t elf_type_ = 0;
  std::string_view soname_;
  std::vector<std::string_view> needed_, rpath_, runpath_;
  bool has_runpath_ = false, has_rpath_ = false, nodeflib_ = false, has_versym_ = false;
  std::vector<std::string_view> verdefs_;
  std::vector<VersionNeed> verneeds_;
  std::vector<DynSymbol> symbols_;
  std::vector<Section> sections_;
  // version index (versym & 0x7fff) -> name / file
  std::unordered_map<unsigned, std::pair<std::string_view, std::string_view>> version_names_;
  mutable std::unique_ptr<std::unordered_map<std::string_view, std::vector<std::uint32_t>>> defs_;
};

template <typename F>
bool ElfObject::any_definition(std::string_view name, std::uint32_t hash, F f) const {
  if (gnu_.nbuckets == 0) {
    const auto* defs = definitions(name);
    if (defs)
      for (auto i : *defs)
        if (f(symbols_[i])) return true;
    return false;
  }
  auto word32 = [](const char* p, std::uint32_t i) {
    std::uint32_t v;
    __builtin_memcpy(&v, p + 4ull * i, 4);
    return v;
  };
  std::uint64_t bits;
  __builtin_memcpy(&bits, gnu_.bloom + 8ull * ((hash / 64) % gnu_.bloom_size), 8);
  std::uint64_t mask = (1ull << (hash % 64)) | (1ull << ((hash >> gnu_.bloom_shift) % 64));
  if ((bits & mask) != mask) return false;
  std::uint32_t sym = word32(gnu_.buckets, hash % gnu_.nbuckets);
  if (sym < gnu_.symoffset) return false;
  for (;; ++sym) {
    std::uint32_t ci = sym - gnu_.symoffset;
    if (ci >= gnu_.nchain || sym == 0 || sym > symbols_.size()) return false;
    std::uint32_t h2 = word32(gnu_.chain, ci);
    if ((h2 | 1) == (hash | 1)) {
      const DynSymbol& s = symbols_[sym - 1];  // symbols_ skips the null symbol 0
      if (s.exported && s.name == name && f(s)) return true;
    }
    if (h2 & 1) return false;
  }
}

}  // namespace gpucheck::platform
