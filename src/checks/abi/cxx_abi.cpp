#include "checks/abi/cxx_abi.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace gpucheck::abi {

const char* to_string(CxxAbi a) {
  switch (a) {
    case CxxAbi::kUnknown: return "unknown";
    case CxxAbi::kOld: return "old";
    case CxxAbi::kNew: return "cxx11";
    case CxxAbi::kMixed: return "mixed";
  }
  return "?";
}

std::string CxxAbiUse::macro() const {
  switch (abi) {
    case CxxAbi::kOld: return "_GLIBCXX_USE_CXX11_ABI=0";
    case CxxAbi::kNew: return "_GLIBCXX_USE_CXX11_ABI=1";
    case CxxAbi::kMixed: return "mixed";
    default: return "unknown";
  }
}

std::string demangle(const std::string& mangled) {
  if (mangled.rfind("_Z", 0) != 0) return mangled;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(::abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && out ? std::string(out.get()) : mangled;
}

CxxAbiUse detect_cxx_abi(const platform::ElfObject& o) {
  CxxAbiUse u;
  std::string first_old, first_new;
  for (const auto& s : o.symbols()) {
    if (s.name.size() < 3 || s.name[0] != '_' || s.name[1] != 'Z') continue;
    if (s.name.find("St7__cxx11") != std::string_view::npos || s.name.find("B5cxx11") != std::string_view::npos) {
      if (++u.new_abi_symbols == 1) first_new = std::string(s.name);
      continue;
    }
    // Old std::string is the substitution `Ss`; demangle only the few candidates to be sure.
    if (s.name.find("Ss") == std::string_view::npos) continue;
    std::string d = demangle(std::string(s.name));
    if (d.find("std::string") != std::string::npos || d.find("std::basic_string<char") != std::string::npos)
      if (++u.old_abi_symbols == 1) first_old = std::string(s.name);
  }
  if (u.new_abi_symbols && u.old_abi_symbols) u.abi = CxxAbi::kMixed;
  else if (u.new_abi_symbols) u.abi = CxxAbi::kNew;
  else if (u.old_abi_symbols) u.abi = CxxAbi::kOld;
  u.example = demangle(u.abi == CxxAbi::kOld ? first_old : first_new);
  return u;
}

}  // namespace gpucheck::abi
