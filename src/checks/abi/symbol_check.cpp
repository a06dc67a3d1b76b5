#include "checks/abi/symbol_check.h"

#include <algorithm>
#include <unordered_map>

namespace gpucheck::abi {

bool satisfies(const platform::ElfObject& o, std::string_view name, std::uint32_t hash, std::string_view version) {
  return o.any_definition(name, hash, [&](const platform::DynSymbol& s) {
    if (version.empty()) return !s.hidden_version;  // an unversioned reference binds the default definition
    // No version info at all is accepted; so is an unversioned (base) definition.
    return !o.has_versym() || s.version == version || (s.version.empty() && !s.hidden_version);
  });
}

bool satisfies(const platform::ElfObject& o, std::string_view name, std::string_view version) {
  return satisfies(o, name, platform::ElfObject::gnu_hash(name), version);
}

namespace {

/// Each object's own dependency closure (itself and everything its NEEDED entries reach), as flags.
std::vector<std::vector<bool>> own_closures(const LoadGraph& g) {
  std::size_t n = g.objects.size();
  std::vector<std::vector<int>> edges(n);
  for (const auto& d : g.deps)
    if (d.object >= 0) edges[d.requester].push_back(d.object);
  std::vector<std::vector<bool>> out(n, std::vector<bool>(n, false));
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<int> stack{static_cast<int>(i)};
    out[i][i] = true;
    while (!stack.empty()) {
      int k = stack.back();
      stack.pop_back();
      for (int e : edges[k])
        if (!out[i][e]) {
          out[i][e] = true;
          stack.push_back(e);
        }
    }
  }
  return out;
}

std::vector<std::string> signature(const LoadGraph& g, const std::vector<bool>& closure) {
  std::vector<std::string> sig;
  for (std::size_t k = 0; k < closure.size(); ++k)
    if (closure[k]) sig.push_back(g.objects[k].real);
  std::sort(sig.begin(), sig.end());
  return sig;
}

}  // namespace

SymbolCheck check_symbols(const LoadGraph& g, BindingCache* cache) {
  SymbolCheck out;
  // Lookup scope: the parent's global scope (global preloads) first, then the dlopen'ed closure in load
  // order. What another dlopen loaded RTLD_LOCAL (torch's libnccl) is not in it.
  std::vector<int> scope_index = g.lookup_scope();
  std::vector<const platform::ElfObject*> scope;
  for (int i : scope_index) scope.push_back(g.objects[i].elf);

  // Hundreds of objects import the same symbols (memcpy@GLIBC_2.14, operator new, ...): look each
  // (name, version) up in the scope once. Keyed by views into the mapped string tables.
  struct Key {
    std::string_view name, version;
    bool operator==(const Key& o) const { return name == o.name && version == o.version; }
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const { return platform::ElfObject::gnu_hash(k.name) * 31u + k.version.size(); }
  };
  std::unordered_map<Key, int, KeyHash> bound;  // -> index of the defining object
  bound.reserve(1 << 14);

  std::vector<std::vector<bool>> closures;
  if (cache) closures = own_closures(g);
  for (std::size_t oi = 0; oi < g.objects.size(); ++oi) {
    const LoadedObject& obj = g.objects[oi];
    if (obj.preloaded) continue;
    std::vector<std::string> sig;
    if (cache) {
      sig = signature(g, closures[oi]);
      auto it = cache->self_sufficient.find(obj.elf);
      if (it != cache->self_sufficient.end() && it->second == sig) {
        ++cache->skipped;
        continue;
      }
    }
    bool self_sufficient = true;
    std::size_t missing_before = out.symbols.size(), versions_before = out.versions.size();
    for (const platform::DynSymbol& s : obj.elf->symbols()) {
      if (s.defined || s.weak || s.name.empty()) continue;
      ++out.references_checked;
      bool found = false;
      int definer = -1;
      auto memo = bound.find(Key{s.name, s.version});
      if (memo != bound.end() && g.objects[memo->second].elf != obj.elf) {
        definer = memo->second;
      } else {
        std::uint32_t hash = platform::ElfObject::gnu_hash(s.name);
        for (std::size_t ci = 0; ci < scope.size(); ++ci)
          if (scope[ci] != obj.elf && satisfies(*scope[ci], s.name, hash, s.version)) {
            definer = scope_index[ci];
            bound.emplace(Key{s.name, s.version}, definer);
            break;
          }
      }
      found = definer >= 0;
      // Bound outside its own closure (e.g. to the interpreter or a preload): true only in this setting.
      if (cache && found && !closures[oi][definer]) self_sufficient = false;
      if (!found)
        out.symbols.push_back({static_cast<int>(oi), std::string(s.name), std::string(s.version), std::string(s.version_file)});
    }
    // Required versions, checked against the library each DT_VERNEED entry names.
    for (const platform::VersionNeed& vn : obj.elf->version_needs()) {
      int provider = -1;
      for (const auto& d : g.deps)
        if (d.requester == static_cast<int>(oi) && d.name == vn.file) provider = d.object;
      if (provider < 0)  // named library not a direct dependency: find it loaded by SONAME
        for (std::size_t k = 0; k < g.objects.size(); ++k)
          if (g.objects[k].elf->soname() == vn.file) provider = static_cast<int>(k);
      if (provider < 0) continue;  // the library itself is missing: reported as a missing dependency
      const platform::ElfObject& p = *g.objects[provider].elf;
      if (p.version_definitions().empty()) continue;  // loader: "no version information available" (warning)
      if (!p.defines_version(vn.version))
        out.versions.push_back({static_cast<int>(oi), provider, std::string(vn.file), std::string(vn.version), vn.weak});
    }
    if (cache && self_sufficient && out.symbols.size() == missing_before && out.versions.size() == versions_before)
      cache->self_sufficient[obj.elf] = std::move(sig);
  }
  return out;
}

}  // namespace gpucheck::abi
