#pragma once
// Symbol binding as ld.so does it for RTLD_NOW (what `import` of an extension does): every undefined,
// non-weak dynamic symbol of every newly loaded object must be defined by some object of the lookup scope
// with a matching version (elf/dl-lookup.c check_match), and every DT_VERNEED version must be defined by
// the library it names (elf/dl-version.c: "version `GLIBCXX_3.4.30' not found").
#include <map>
#include <string>
#include <vector>

#include "checks/abi/loader.h"

namespace gpucheck::abi {

struct MissingSymbol {
  int object = -1;          // index in the load graph of the object that needs it
  std::string name;         // mangled
  std::string version;      // required version, "" when unversioned
  std::string version_file; // library the version was required from
};

struct MissingVersion {
  int object = -1;          // requester
  int provider = -1;        // the loaded library that lacks it
  std::string file, version;
  bool weak = false;        // loader only warns
};

struct SymbolCheck {
  std::vector<MissingSymbol> symbols;
  std::vector<MissingVersion> versions;
  std::size_t references_checked = 0;
};

/// Objects already shown to bind every reference inside their own dependency closure, with that closure
/// (real paths): in a later target whose graph gives the object the same closure, the result cannot differ,
/// so the object is skipped. Shared by all targets of one audit.
struct BindingCache {
  std::map<const platform::ElfObject*, std::vector<std::string>> self_sufficient;
  std::size_t skipped = 0;
};

/// Checks the objects of `g` that are not preloaded (preloads are what the parent process already runs).
SymbolCheck check_symbols(const LoadGraph& g, BindingCache* cache = nullptr);

/// Does object `o` export `name` in a way that satisfies a reference to `name@version`?
bool satisfies(const platform::ElfObject& o, std::string_view name, std::string_view version);
bool satisfies(const platform::ElfObject& o, std::string_view name, std::uint32_t hash, std::string_view version);

}  // namespace gpucheck::abi
