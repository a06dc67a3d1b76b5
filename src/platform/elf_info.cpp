#include "platform/elf_info.h"

#include <elf.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <vector>

namespace gpucheck::inventory {

namespace {
bool pread_all(int fd, void* buf, std::size_t n, off_t off) {
  return n == 0 || pread(fd, buf, n, off) == static_cast<ssize_t>(n);
}
}  // namespace

ElfInfo read_elf_info(const std::string& path) {
  ElfInfo info;
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return info;
  Elf64_Ehdr eh{};
  if (!pread_all(fd, &eh, sizeof eh, 0) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) {
    close(fd);
    return info;
  }
  info.is_elf = true;
  info.is_64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
  info.machine = eh.e_machine;
  // 64-bit little endian only: everything CUDA ships on Linux.
  if (!info.is_64 || eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 ||
      eh.e_shnum > 4096) {
    close(fd);
    return info;
  }
  std::vector<Elf64_Shdr> sh(eh.e_shnum);
  if (!pread_all(fd, sh.data(), sh.size() * sizeof(Elf64_Shdr), static_cast<off_t>(eh.e_shoff))) {
    close(fd);
    return info;
  }
  for (const auto& s : sh) {
    if (s.sh_type != SHT_DYNAMIC || s.sh_link >= sh.size() || s.sh_size > (1u << 20)) continue;
    std::vector<Elf64_Dyn> dyn(s.sh_size / sizeof(Elf64_Dyn));
    if (!pread_all(fd, dyn.data(), dyn.size() * sizeof(Elf64_Dyn), static_cast<off_t>(s.sh_offset))) break;
    const auto& strtab = sh[s.sh_link];
    for (const auto& d : dyn) {
      if (d.d_tag == DT_NULL) break;
      if (d.d_tag != DT_SONAME || d.d_un.d_val >= strtab.sh_size) continue;
      char buf[256] = {0};
      std::size_t n = std::min<std::size_t>(sizeof buf - 1, strtab.sh_size - d.d_un.d_val);
      if (pread(fd, buf, n, static_cast<off_t>(strtab.sh_offset + d.d_un.d_val)) > 0) info.soname = buf;
    }
    break;
  }
  close(fd);
  return info;
}

}  // namespace gpucheck::inventory
