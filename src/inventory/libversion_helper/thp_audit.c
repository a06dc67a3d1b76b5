/* gpucheck-libversion's LD_AUDIT module: asks for transparent huge pages on the zero-filled (.bss) part of
 * every library the helper loads, before the library's constructors run. libcublasLt's constructors touch
 * ~85 MB of its .bss; with the kernel's THP mode at "madvise" (Debian's default) that is ~21000 4-KiB page
 * faults, about a third of the time its dlopen takes. With MADV_HUGEPAGE it is a few dozen 2-MiB faults.
 * Nothing else changes: same file, same relocations, same constructors, same version function; when the
 * kernel has no huge page at hand it falls back to small pages. la_objopen runs after the loader mapped the
 * object and before it relocates it or runs any of its code (rtld-audit(7)). */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

unsigned int la_version(unsigned int version) {
  (void)version;
  return LAV_CURRENT;
}

unsigned int la_objopen(struct link_map* map, Lmid_t lmid, uintptr_t* cookie) {
  (void)lmid;
  (void)cookie;
  if (!map->l_name || !map->l_name[0]) return 0;
  int fd = open(map->l_name, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  Elf64_Ehdr eh;
  if (pread(fd, &eh, sizeof eh, 0) == (ssize_t)sizeof eh && eh.e_ident[EI_CLASS] == ELFCLASS64 &&
      eh.e_phentsize == sizeof(Elf64_Phdr)) {
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (int i = 0; i < eh.e_phnum && i < 64; ++i) {
      Elf64_Phdr ph;
      if (pread(fd, &ph, sizeof ph, (off_t)(eh.e_phoff + (Elf64_Off)i * sizeof ph)) != (ssize_t)sizeof ph) break;
      if (ph.p_type != PT_LOAD || ph.p_memsz <= ph.p_filesz) continue;
      /* The anonymous mapping the loader made for the part beyond the file's bytes. */
      uintptr_t start = (map->l_addr + ph.p_vaddr + ph.p_filesz + page - 1) & ~(page - 1);
      uintptr_t end = (map->l_addr + ph.p_vaddr + ph.p_memsz + page - 1) & ~(page - 1);
      if (end > start + (2u << 20)) madvise((void*)start, end - start, MADV_HUGEPAGE);
    }
  }
  close(fd);
  return 0;
}
