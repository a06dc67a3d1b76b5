#pragma once
// Turns missing symbols and versions into groups a person can act on, each with its likely cause:
// torch/c10 symbols -> built against another torch or C++ ABI; GLIBCXX_/CXXABI_ versions -> libstdc++ too
// old here (and which newer one exists on this machine); a library's API symbol -> never linked.
#include <map>
#include <string>
#include <vector>

#include "checks/abi/cxx_abi.h"
#include "checks/abi/symbol_check.h"
#include "core/finding.h"

namespace gpucheck::abi {

struct SymbolGroup {
  std::string category;            // not_visible | torch | cxx_abi | libstdcxx | glibc | library_api | version | other
  std::string cause;               // one sentence
  std::vector<Fix> remedy;         // what to run or change: a sentence, and the exact command when there is one
  std::vector<std::string> symbols;    // demangled (with @VERSION when versioned)
  std::vector<std::string> mangled;
  std::vector<std::string> needed_by;  // objects that need them
};

struct SymbolOwner {
  std::string prefix, library, package, link_flag;
};

struct DiagnosisContext {
  std::vector<SymbolOwner> owners;             // data/abi/symbol_owners.json
  std::vector<std::string> libstdcxx_search;   // extra directories to look for other libstdc++ builds
  ObjectCache* cache = nullptr;
};

/// Loads the owner table from the data dir (empty when absent).
std::vector<SymbolOwner> load_symbol_owners();

std::vector<SymbolGroup> diagnose(const LoadGraph& g, const SymbolCheck& check, const DiagnosisContext& ctx);

/// A demangled name in torch's own namespaces (c10::, at::, torch::, caffe2::, typeinfo/vtable of them).
bool is_torch_symbol(const std::string& demangled);

/// The first undefined symbol an import error names ("undefined symbol: ncclRecv"; macOS's "Symbol not found:
/// __ZN2at..." without Mach-O's extra leading underscore), "" when none.
std::string undefined_symbol_in(const std::string& error);

/// Every libstdc++.so.6 on this machine (ld.so.cache, default and GCC/conda directories) that defines
/// `version`, excluding `except_real` (the one already loaded).
std::vector<std::string> libstdcxx_with_version(const std::string& version, const std::string& except_real,
                                                const DiagnosisContext& ctx);

/// The newest GLIBCXX_3.4.N an object defines ("" when none).
std::string newest_glibcxx(const platform::ElfObject& o);
/// The newest version the object itself requires in each numbered namespace, weak needs (which the loader
/// does not enforce) left out: {"GLIBC": "GLIBC_2.28", "GLIBCXX": "GLIBCXX_3.4.24", "GCC": "GCC_3.0"}. What
/// the oldest system that loads it must provide (a manylinux policy's limits are per namespace).
std::map<std::string, std::string> newest_version_needs(const platform::ElfObject& o);

}  // namespace gpucheck::abi
