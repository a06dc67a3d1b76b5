#include "platform/elf_object.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>

#include "core/regular_file.h"

namespace gpucheck::platform {
namespace {

#if defined(__x86_64__)
constexpr unsigned kHostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr unsigned kHostMachine = EM_AARCH64;
#elif defined(__powerpc64__)
constexpr unsigned kHostMachine = EM_PPC64;
#else
constexpr unsigned kHostMachine = EM_NONE;
#endif

void init_libelf() {
  static std::once_flag once;
  std::call_once(once, [] { elf_version(EV_CURRENT); });
}

std::string libelf_error() {
  const char* m = elf_errmsg(-1);
  return m ? m : "unknown libelf error";
}

std::vector<std::string_view> split_path_list(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    std::size_t colon = s.find(':', start);
    if (colon == std::string_view::npos) colon = s.size();
    out.push_back(s.substr(start, colon - start));  // empty entries mean "current directory" to ld.so
    start = colon + 1;
  }
  return out;
}

bool has_elf_magic(int fd) {
  unsigned char magic[SELFMAG];
  return pread(fd, magic, sizeof magic, 0) == SELFMAG && std::memcmp(magic, ELFMAG, SELFMAG) == 0;
}

/// Reads the ELF identification bytes; "" when the file is a loadable ELF of the host's class/machine.
std::string ident_mismatch(int fd) {
  unsigned char ident[20];
  ssize_t n = pread(fd, ident, sizeof ident, 0);
  if (n < static_cast<ssize_t>(sizeof ident) || std::memcmp(ident, ELFMAG, SELFMAG) != 0) return "not an ELF file";
  if (ident[EI_CLASS] != ELFCLASS64)
    return ident[EI_CLASS] == ELFCLASS32 ? "ELFCLASS32 (32-bit) object" : "unknown ELF class";
  if (ident[EI_DATA] != ELFDATA2LSB) return "big-endian ELF object";
  unsigned machine = ident[18] | (ident[19] << 8);
  if (machine != kHostMachine) return "ELF machine " + std::to_string(machine) + " (not this host's)";
  return "";
}

Elf_Scn* find_section(Elf* elf, std::uint32_t type, GElf_Shdr* out) {
  Elf_Scn* scn = nullptr;
  while ((scn = elf_nextscn(elf, scn)) != nullptr)
    if (gelf_getshdr(scn, out) && out->sh_type == type) return scn;
  return nullptr;
}

}  // namespace

bool ElfObject::is_elf_file(const std::string& path) {
  int fd = open_regular_file(path);  // never a device or FIFO
  if (fd < 0) return false;
  bool elf = has_elf_magic(fd);
  ::close(fd);
  return elf;
}

std::string ElfObject::not_elf_reason(const std::string& path) {
  int fd = open_regular_file(path);  // never a device or FIFO
  if (fd < 0) return errno == EINVAL ? "not a regular file" : std::strerror(errno);
  unsigned char magic[SELFMAG];
  ssize_t n = pread(fd, magic, sizeof magic, 0);
  int e = errno;
  ::close(fd);
  if (n < 0) return std::strerror(e);
  return n == SELFMAG && std::memcmp(magic, ELFMAG, SELFMAG) == 0 ? "" : "not an ELF file";
}

std::string ElfObject::loadable_mismatch(const std::string& path) {
  int fd = open_regular_file(path);  // never a device or FIFO
  if (fd < 0) return errno == EINVAL ? "not a regular file" : std::strerror(errno);
  std::string why = ident_mismatch(fd);
  ::close(fd);
  return why;
}

std::string ElfObject::read_soname(const std::string& path) {
  int fd = open_regular_file(path);  // never a device or FIFO
  if (fd < 0) return "";
  std::string soname;
  if (has_elf_magic(fd)) {
    init_libelf();
    // ELF_C_READ: libelf preads the headers and the two sections asked for, never maps the file (a file
    // truncated while mapped would SIGBUS); it takes the file's size from fstat and checks offsets on it.
    if (Elf* elf = elf_begin(fd, ELF_C_READ, nullptr)) {
      GElf_Shdr sh;
      Elf_Scn* scn = elf_kind(elf) == ELF_K_ELF ? find_section(elf, SHT_DYNAMIC, &sh) : nullptr;
      Elf_Data* d = scn && sh.sh_type != SHT_NOBITS ? elf_getdata(scn, nullptr) : nullptr;
      std::size_t n = d && sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
      for (std::size_t i = 0; i < n; ++i) {
        GElf_Dyn dyn;
        if (!gelf_getdyn(d, static_cast<int>(i), &dyn) || dyn.d_tag == DT_NULL) break;
        if (dyn.d_tag != DT_SONAME) continue;
        if (const char* s = elf_strptr(elf, sh.sh_link, dyn.d_un.d_val)) soname = s;  // null: outside .dynstr
        break;
      }
      elf_end(elf);
    }
  }
  ::close(fd);
  return soname;
}

std::unique_ptr<ElfObject> ElfObject::open(const std::string& path) {
  init_libelf();
  std::unique_ptr<ElfObject> o(new ElfObject());
  o->path_ = path;
  o->fd_ = open_regular_file(path);  // a device or FIFO is never opened
  if (o->fd_ < 0) throw ElfError(path + ": " + (errno == EINVAL ? "not a regular file" : std::strerror(errno)));
  struct stat st {};
  if (fstat(o->fd_, &st) != 0 || !S_ISREG(st.st_mode)) throw ElfError(path + ": not a regular file");
  o->file_size_ = static_cast<std::uint64_t>(st.st_size);
  std::string why = ident_mismatch(o->fd_);
  if (!why.empty()) throw ElfError(path + ": " + why);
  o->load();
  return o;
}

ElfObject::~ElfObject() {
  if (elf_) elf_end(elf_);
  if (fd_ >= 0) ::close(fd_);
}

void ElfObject::load() {
  elf_ = elf_begin(fd_, ELF_C_READ, nullptr);
  if (!elf_ || elf_kind(elf_) != ELF_K_ELF) throw ElfError(path_ + ": libelf cannot read it: " + libelf_error());
  GElf_Ehdr eh;
  if (!gelf_getehdr(elf_, &eh)) throw ElfError(path_ + ": bad ELF header: " + libelf_error());
  elf_type_ = eh.e_type;
  if (eh.e_shoff > file_size_ || (eh.e_shnum && eh.e_shoff + std::uint64_t(eh.e_shnum) * eh.e_shentsize > file_size_))
    throw ElfError(path_ + ": truncated (section headers end past the file's " + std::to_string(file_size_) + " bytes)");
  if (eh.e_phoff + std::uint64_t(eh.e_phnum) * eh.e_phentsize > file_size_)
    throw ElfError(path_ + ": truncated (program headers end past the end of the file)");
  read_sections();
  if (sections_.empty()) {
    // sstrip'ed: dependencies would only be reachable through PT_DYNAMIC. Say so instead of "no deps".
    for (std::size_t i = 0; i < eh.e_phnum; ++i) {
      GElf_Phdr ph;
      if (gelf_getphdr(elf_, static_cast<int>(i), &ph) && ph.p_type == PT_DYNAMIC)
        throw ElfError(path_ + ": dynamic object without section headers (sstrip'ed): not supported");
    }
  }
  read_versions();
  read_dynamic();
  read_symbols();
  read_gnu_hash();
}

void ElfObject::read_gnu_hash() {
  GElf_Shdr sh;
  Elf_Scn* scn = find_section(elf_, SHT_GNU_HASH, &sh);
  if (!scn || sh.sh_type == SHT_NOBITS) return;
  Elf_Data* d = elf_getdata(scn, nullptr);  // libelf's copy, alive as long as elf_
  if (!d || !d->d_buf) return;
  std::string_view b(static_cast<const char*>(d->d_buf), d->d_size);
  if (b.size() < 16) return;
  std::uint32_t hdr[4];
  std::memcpy(hdr, b.data(), 16);
  std::uint64_t need = 16 + std::uint64_t(hdr[2]) * 8 + std::uint64_t(hdr[0]) * 4;
  // Unusable table (sizes past the section, or a bloom shift a 32-bit hash cannot take: found by the
  // elf fuzz target, a shift of 170): use the map instead.
  if (hdr[0] == 0 || hdr[2] == 0 || need > b.size() || hdr[3] >= 32) return;
  gnu_.nbuckets = hdr[0];
  gnu_.symoffset = hdr[1];
  gnu_.bloom_size = hdr[2];
  gnu_.bloom_shift = hdr[3];
  gnu_.bloom = b.data() + 16;
  gnu_.buckets = gnu_.bloom + 8ull * hdr[2];
  gnu_.chain = gnu_.buckets + 4ull * hdr[0];
  gnu_.nchain = static_cast<std::uint32_t>((b.size() - need) / 4);
}

void ElfObject::read_sections() {
  std::size_t shstrndx = 0;
  if (elf_getshdrstrndx(elf_, &shstrndx) != 0) throw ElfError(path_ + ": no section name table: " + libelf_error());
  Elf_Scn* scn = nullptr;
  while ((scn = elf_nextscn(elf_, scn)) != nullptr) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh)) throw ElfError(path_ + ": bad section header: " + libelf_error());
    const char* name = elf_strptr(elf_, shstrndx, sh.sh_name);
    Section s{name ? name : "?", sh.sh_type, sh.sh_offset, sh.sh_size};
    if (sh.sh_type != SHT_NOBITS && (sh.sh_offset > file_size_ || sh.sh_size > file_size_ - sh.sh_offset))
      throw ElfError(path_ + ": truncated (section " + s.name + " ends past the end of the file)");
    sections_.push_back(std::move(s));
  }
  // Overlapping file ranges mean a corrupt or hostile file: nothing a linker writes.
  std::vector<const Section*> laid;
  for (const auto& s : sections_)
    if (s.type != SHT_NOBITS && s.size > 0) laid.push_back(&s);
  std::sort(laid.begin(), laid.end(), [](const Section* a, const Section* b) { return a->offset < b->offset; });
  for (std::size_t i = 1; i < laid.size(); ++i)
    if (laid[i]->offset < laid[i - 1]->offset + laid[i - 1]->size)
      throw ElfError(path_ + ": sections " + laid[i - 1]->name + " and " + laid[i]->name + " overlap");
}

void ElfObject::read(std::uint64_t off, void* dst, std::size_t n) const {
  auto* out = static_cast<char*>(dst);
  std::size_t done = 0;
  while (done < n) {
    ssize_t r = ::pread(fd_, out + done, n - done, static_cast<off_t>(off + done));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) throw ElfError(path_ + ": read failed at byte " + std::to_string(off + done) + ": " + std::strerror(errno));
    if (r == 0) {
      struct stat st {};
      std::string now = fstat(fd_, &st) == 0 ? std::to_string(st.st_size) : "?";
      throw ElfError(path_ + ": changed while read (now " + now + " bytes, was " + std::to_string(file_size_) +
                     "; rewritten in place by a build or an install?)");
    }
    done += static_cast<std::size_t>(r);
  }
}

SubSource ElfObject::section_source(const std::string& name) const {
  for (const auto& s : sections_)
    if (s.name == name && s.type != SHT_NOBITS) return SubSource(*this, s.offset, s.size);
  return SubSource(*this, 0, 0);
}

std::string ElfObject::section_bytes(const std::string& name) const {
  SubSource src = section_source(name);
  std::string out(static_cast<std::size_t>(src.size()), '\0');
  src.read(0, out.data(), out.size());
  return out;
}

void ElfObject::read_versions() {
  GElf_Shdr sh;
  constexpr int kMaxEntries = 1 << 20;  // bounds loops on hostile vd_next/vn_next chains
  if (Elf_Scn* scn = find_section(elf_, SHT_GNU_verdef, &sh)) {
    Elf_Data* d = elf_getdata(scn, nullptr);
    std::size_t off = 0;
    for (int i = 0; d && i < kMaxEntries; ++i) {
      GElf_Verdef vd;
      GElf_Verdaux vda;
      if (!gelf_getverdef(d, off, &vd) || !gelf_getverdaux(d, off + vd.vd_aux, &vda))
        throw ElfError(path_ + ": corrupt version definitions (.gnu.version_d)");
      const char* name = elf_strptr(elf_, sh.sh_link, vda.vda_name);
      if (!name) throw ElfError(path_ + ": corrupt version definition name");
      version_names_[vd.vd_ndx] = {name, {}};
      if (!(vd.vd_flags & VER_FLG_BASE)) verdefs_.emplace_back(name);
      if (vd.vd_next == 0) break;
      off += vd.vd_next;
    }
  }
  if (Elf_Scn* scn = find_section(elf_, SHT_GNU_verneed, &sh)) {
    Elf_Data* d = elf_getdata(scn, nullptr);
    std::size_t off = 0;
    for (int i = 0; d && i < kMaxEntries; ++i) {
      GElf_Verneed vn;
      if (!gelf_getverneed(d, off, &vn)) throw ElfError(path_ + ": corrupt version needs (.gnu.version_r)");
      const char* file = elf_strptr(elf_, sh.sh_link, vn.vn_file);
      if (!file) throw ElfError(path_ + ": corrupt version need file name");
      std::size_t aoff = off + vn.vn_aux;
      for (int k = 0; k < vn.vn_cnt && k < kMaxEntries; ++k) {
        GElf_Vernaux va;
        if (!gelf_getvernaux(d, aoff, &va)) throw ElfError(path_ + ": corrupt version need entry");
        const char* name = elf_strptr(elf_, sh.sh_link, va.vna_name);
        if (!name) throw ElfError(path_ + ": corrupt version need name");
        version_names_[va.vna_other] = {name, file};
        verneeds_.push_back({file, name, (va.vna_flags & VER_FLG_WEAK) != 0});
        if (va.vna_next == 0) break;
        aoff += va.vna_next;
      }
      if (vn.vn_next == 0) break;
      off += vn.vn_next;
    }
  }
}

void ElfObject::read_dynamic() {
  GElf_Shdr sh;
  Elf_Scn* scn = find_section(elf_, SHT_DYNAMIC, &sh);
  if (!scn) return;  // static executable or relocatable object: no dependencies
  Elf_Data* d = elf_getdata(scn, nullptr);
  if (!d) throw ElfError(path_ + ": unreadable .dynamic: " + libelf_error());
  std::size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
  auto str = [&](GElf_Xword off) -> std::string_view {
    const char* s = elf_strptr(elf_, sh.sh_link, off);
    if (!s) throw ElfError(path_ + ": .dynamic names a string outside its string table");
    return s;
  };
  for (std::size_t i = 0; i < n; ++i) {
    GElf_Dyn dyn;
    if (!gelf_getdyn(d, static_cast<int>(i), &dyn)) break;
    switch (dyn.d_tag) {
      case DT_NULL: i = n; break;
      case DT_NEEDED: needed_.push_back(str(dyn.d_un.d_val)); break;
      case DT_SONAME: soname_ = str(dyn.d_un.d_val); break;
      case DT_RPATH: has_rpath_ = true; rpath_ = split_path_list(str(dyn.d_un.d_val)); break;
      case DT_RUNPATH: has_runpath_ = true; runpath_ = split_path_list(str(dyn.d_un.d_val)); break;
      case DT_FLAGS_1: nodeflib_ = (dyn.d_un.d_val & DF_1_NODEFLIB) != 0; break;
      default: break;
    }
  }
}

void ElfObject::read_symbols() {
  GElf_Shdr sh, vsh;
  Elf_Scn* scn = find_section(elf_, SHT_DYNSYM, &sh);
  if (!scn) return;
  Elf_Data* d = elf_getdata(scn, nullptr);
  if (!d) throw ElfError(path_ + ": unreadable .dynsym: " + libelf_error());
  Elf_Data* vd = nullptr;
  if (Elf_Scn* vs = find_section(elf_, SHT_GNU_versym, &vsh)) {
    vd = elf_getdata(vs, nullptr);
    has_versym_ = vd != nullptr;
  }
  std::size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
  symbols_.reserve(n);
  for (std::size_t i = 1; i < n; ++i) {
    GElf_Sym s;
    if (!gelf_getsym(d, static_cast<int>(i), &s)) throw ElfError(path_ + ": corrupt .dynsym entry " + std::to_string(i));
    const char* name = elf_strptr(elf_, sh.sh_link, s.st_name);
    if (!name) throw ElfError(path_ + ": .dynsym names a string outside its string table");
    DynSymbol sym;
    sym.name = name;
    sym.defined = s.st_shndx != SHN_UNDEF;
    unsigned bind = GELF_ST_BIND(s.st_info);
    sym.weak = bind == STB_WEAK;
    sym.type = GELF_ST_TYPE(s.st_info);
    unsigned vis = GELF_ST_VISIBILITY(s.st_other);
    sym.exported = sym.defined && (bind == STB_GLOBAL || bind == STB_WEAK || bind == STB_GNU_UNIQUE) &&
                   sym.type != STT_SECTION && sym.type != STT_FILE && (vis == STV_DEFAULT || vis == STV_PROTECTED);
    if (vd) {
      GElf_Versym v;
      if (gelf_getversym(vd, static_cast<int>(i), &v)) {
        unsigned ndx = v & 0x7fff;
        sym.hidden_version = (v & 0x8000) != 0;
        if (ndx >= 2) {
          auto it = version_names_.find(ndx);
          if (it != version_names_.end()) {
            sym.version = it->second.first;
            sym.version_file = it->second.second;
          }
        }
      }
    }
    symbols_.push_back(sym);
  }
}

const std::vector<std::uint32_t>* ElfObject::definitions(std::string_view name) const {
  if (!defs_) {
    defs_ = std::make_unique<std::unordered_map<std::string_view, std::vector<std::uint32_t>>>();
    defs_->reserve(symbols_.size());
    for (std::uint32_t i = 0; i < symbols_.size(); ++i)
      if (symbols_[i].exported) (*defs_)[symbols_[i].name].push_back(i);
  }
  auto it = defs_->find(name);
  return it == defs_->end() ? nullptr : &it->second;
}

bool ElfObject::defines_version(std::string_view version) const {
  return std::find(verdefs_.begin(), verdefs_.end(), version) != verdefs_.end();
}

}  // namespace gpucheck::platform
