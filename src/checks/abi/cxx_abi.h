#pragma once
// Which libstdc++ string/list ABI an object uses (_GLIBCXX_USE_CXX11_ABI), read from its dynamic symbols:
// the new ABI mangles std::string as std::__cxx11::basic_string (and tags functions [abi:cxx11]); the old
// one as `Ss` (demangled "std::string").
#include <cstddef>
#include <string>

#include "platform/elf_object.h"

namespace gpucheck::abi {

enum class CxxAbi { kUnknown, kOld, kNew, kMixed };
const char* to_string(CxxAbi a);

struct CxxAbiUse {
  CxxAbi abi = CxxAbi::kUnknown;
  std::size_t new_abi_symbols = 0, old_abi_symbols = 0;
  std::string example;  // one demangled symbol that decided it
  /// "_GLIBCXX_USE_CXX11_ABI=1" / "=0" / "mixed" / "unknown"
  std::string macro() const;
};

/// Scans `o`'s dynamic symbols, defined and undefined. libstdc++ itself exports both ABIs (kMixed).
CxxAbiUse detect_cxx_abi(const platform::ElfObject& o);

/// Demangles an Itanium C++ name; returns it unchanged when it is not one.
std::string demangle(const std::string& mangled);

}  // namespace gpucheck::abi
