// Fuzz target: the ELF reader (headers, sections, .dynamic, .dynsym, symbol versions, .gnu.hash, through
// libelf's pread mode) and the fatbin reader on the bytes of a file. Every input must open cleanly or
// be an ElfError; never crash, hang or read out of bounds. The bytes go into a memfd so the reader sees
// a real file, as it does in `gpucheck abi`.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "checks/abi/fatbin.h"
#include "platform/elf_object.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpucheck::abi;
using namespace gpucheck::platform;
  static const int fd = memfd_create("elf-fuzz", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) return 0;
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  (void)ElfObject::read_soname(path);
  (void)ElfObject::loadable_mismatch(path);
  (void)ElfObject::not_elf_reason(path);
  try {
    auto o = ElfObject::open(path);
    std::size_t n = o->soname().size();
    for (auto s : o->needed()) n += s.size();
    for (auto s : o->rpath()) n += s.size();
    for (const auto& v : o->version_needs()) n += v.file.size() + v.version.size();
    for (const auto& s : o->symbols()) {
      n += s.name.size() + s.version.size();
      o->any_definition(s.name, ElfObject::gnu_hash(s.name), [&](const DynSymbol& d) { return d.defined; });
    }
    for (const auto& s : o->sections()) {
      if (s.name != ".nv_fatbin" && s.name.find("data") == std::string::npos) continue;
      try {
        (void)parse_fatbin(o->section_source(s.name));
      } catch (const FatbinError&) {
      }
      std::size_t containers = 0;
      (void)scan_embedded_fatbins(o->section_source(s.name), s.offset, &containers);
    }
    (void)n;
  } catch (const ElfError&) {
  }
  return 0;
}
