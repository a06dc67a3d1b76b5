#include "abi/symbol_check.h"

namespace gpucheck::abi {

bool satisfies(const ElfObject& o, std::string_view name, std::uint32_t hash, std::string_view version) {
  return o.any_definition(name, hash, [&](const DynSymbol& s) {
    if (version.empty()) return !s.hidden_version;  // an unversioned reference binds the default definition
    // No version info at all is accepted; so is an unversioned (base) definition.
    return !o.has_versym() || s.version == version || (s.version.empty() && !s.hidden_version);
  });
}

bool satisfies(const ElfObject& o, std::string_view name, std::string_view version) {
  return satisfies(o, name, ElfObject::gnu_hash(name), version);
}

SymbolCheck check_symbols(const LoadGraph& g) {
  SymbolCheck out;
  // Lookup scope: the parent's global scope (preloads) first, then the dlopen'ed closure in load order.
  std::vector<const ElfObject*> scope;
  for (const auto& o : g.objects) scope.push_back(o.elf);

  for (std::size_t oi = 0; oi < g.objects.size(); ++oi) {
    const LoadedObject& obj = g.objects[oi];
    if (obj.preloaded) continue;
    for (const DynSymbol& s : obj.elf->symbols()) {
      if (s.defined || s.weak || s.name.empty()) continue;
      ++out.references_checked;
      bool found = false;
      std::uint32_t hash = ElfObject::gnu_hash(s.name);
      for (const ElfObject* candidate : scope)
        if (candidate != obj.elf && satisfies(*candidate, s.name, hash, s.version)) {
          found = true;
          break;
        }
      if (!found)
        out.symbols.push_back({static_cast<int>(oi), std::string(s.name), std::string(s.version), std::string(s.version_file)});
    }
    // Required versions, checked against the library each DT_VERNEED entry names.
    for (const VersionNeed& vn : obj.elf->version_needs()) {
      int provider = -1;
      for (const auto& d : g.deps)
        if (d.requester == static_cast<int>(oi) && d.name == vn.file) provider = d.object;
      if (provider < 0)  // named library not a direct dependency: find it loaded by SONAME
        for (std::size_t k = 0; k < g.objects.size(); ++k)
          if (g.objects[k].elf->soname() == vn.file) provider = static_cast<int>(k);
      if (provider < 0) continue;  // the library itself is missing: reported as a missing dependency
      const ElfObject& p = *g.objects[provider].elf;
      if (p.version_definitions().empty()) continue;  // loader: "no version information available" (warning)
      if (!p.defines_version(vn.version))
        out.versions.push_back({static_cast<int>(oi), provider, std::string(vn.file), std::string(vn.version), vn.weak});
    }
  }
  return out;
}

}  // namespace gpucheck::abi
