#pragma once
// The two facts about a shared object we need without loading it: its SONAME and its machine.
// Reads only the ELF headers, so a 500 MB libcublasLt costs a few page reads.
#include <string>

namespace gpucheck::inventory {

struct ElfInfo {
  bool is_elf = false;
  bool is_64 = false;
  int machine = 0;        // e_machine: 62 = x86-64, 183 = aarch64
  std::string soname;     // DT_SONAME, "" when absent
};

/// `path` is a host path. Never throws; a non-ELF or unreadable file gives is_elf = false.
ElfInfo read_elf_info(const std::string& path);

}  // namespace gpucheck::inventory
