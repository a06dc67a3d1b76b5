#pragma once
// A platform/ file that opens another folder's namespace (as elf_object.h did with gpucheck::abi): refused.
namespace gpucheck::abi {
struct ElfReader {};
}  // namespace gpucheck::abi
