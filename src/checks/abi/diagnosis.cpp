#include "checks/abi/diagnosis.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include "core/files.h"
#include "core/paths.h"

namespace gpucheck::abi {
namespace fs = std::filesystem;

std::vector<SymbolOwner> load_symbol_owners() {
  std::vector<SymbolOwner> out;
  std::string path = data_path("abi/symbol_owners.json");
  if (!fs::exists(path)) return out;
  const nlohmann::json doc = read_json_file(path);  // kept alive: iterating a temporary's member dangles
  for (const auto& o : doc.at("owners"))
    out.push_back({o.at("prefix").get<std::string>(), o.at("library").get<std::string>(),
                   o.value("package", std::string()), o.value("link_flag", std::string())});
  // Longest prefix first so "cublasLt" wins over "cublas" and "cuda" over "cu".
  std::sort(out.begin(), out.end(), [](const SymbolOwner& a, const SymbolOwner& b) { return a.prefix.size() > b.prefix.size(); });
  return out;
}

namespace {

bool version_less(const std::string& a, const std::string& b) {
  // GLIBCXX_3.4.9 < GLIBCXX_3.4.30: compare dotted numbers after the prefix
  auto nums = [](const std::string& v) {
    std::vector<int> n;
    std::size_t i = v.find('_');
    std::string rest = i == std::string::npos ? v : v.substr(i + 1);
    for (std::size_t p = 0; p < rest.size();) {
      std::size_t q = rest.find('.', p);
      if (q == std::string::npos) q = rest.size();
      try {
        n.push_back(std::stoi(rest.substr(p, q - p)));
      } catch (...) {
        n.push_back(0);
      }
      p = q + 1;
    }
    return n;
  };
  return nums(a) < nums(b);
}

/// A demangled name with the string/ABI spelling removed, so the two ABIs' versions of one function compare equal.
std::string abi_neutral(std::string d) {
  auto replace_all = [&](const std::string& from, const std::string& to) {
    for (std::size_t p = d.find(from); p != std::string::npos; p = d.find(from, p + to.size())) d.replace(p, from.size(), to);
  };
  replace_all("std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >", "std::string");
  replace_all("[abi:cxx11]", "");
  replace_all("std::__cxx11::", "std::");
  return d;
}

/// The same function defined in the closure under the other C++ string ABI: the object and the library
/// were built with different _GLIBCXX_USE_CXX11_ABI. Returns "path: demangled" or "".
std::string abi_twin(const LoadGraph& g, const std::string& mangled) {
  std::string d = demangle(mangled);
  if (d == mangled) return "";
  std::string key = abi_neutral(d);
  std::string fn = d.substr(0, d.find('('));
  fn = fn.substr(fn.rfind("::") == std::string::npos ? 0 : fn.rfind("::") + 2);
  fn = fn.substr(fn.rfind(' ') == std::string::npos ? 0 : fn.rfind(' ') + 1);
  if (fn.empty()) return "";
  std::string fragment = std::to_string(fn.size()) + fn;  // how the identifier appears mangled
  for (const auto& o : g.objects)
    for (const auto& s : o.elf->symbols())
      if (s.exported && s.name.find(fragment) != std::string_view::npos && s.name != mangled) {
        std::string other = demangle(std::string(s.name));
        if (abi_neutral(other) == key) return o.path + ": " + other;
      }
  return "";
}

/// A remedy: the sentence a reader acts on, and the exact shell lines when the remedy is a command.
Fix remedy(std::string summary, std::vector<std::string> commands = {}) {
  return Fix{1, std::move(summary), std::move(commands), ""};
}

std::string cxx_abi_sentence(CxxAbi a) {
  return a == CxxAbi::kNew ? "_GLIBCXX_USE_CXX11_ABI=1" : a == CxxAbi::kOld ? "_GLIBCXX_USE_CXX11_ABI=0" : to_string(a);
}

}  // namespace

std::string undefined_symbol_in(const std::string& error) {
  std::string key = "undefined symbol: ";
  auto p = error.find(key);
  // macOS's dyld: "Symbol not found: __ZN2at14RecordFunction..." (Mach-O names carry one more leading '_').
  const bool macho = p == std::string::npos && (p = error.find("Symbol not found: ")) != std::string::npos;
  if (macho) key = "Symbol not found: ";
  if (p == std::string::npos) return "";
  auto e = error.find_first_of(" \n\t,`'\"", p + key.size());
  std::string symbol = error.substr(p + key.size(), e == std::string::npos ? std::string::npos : e - p - key.size());
  if (macho && symbol.rfind("__Z", 0) == 0) symbol.erase(0, 1);
  return symbol;
}

bool is_torch_symbol(const std::string& demangled) {
  std::string d = demangled;
  for (const char* p : {"typeinfo for ", "typeinfo name for ", "vtable for ", "non-virtual thunk to ", "guard variable for "})
    if (d.rfind(p, 0) == 0) d = d.substr(std::string(p).size());
  for (const char* p : {"c10::", "at::", "torch::", "caffe2::", "pybind11::detail::type_caster<at::"})
    if (d.rfind(p, 0) == 0) return true;
  // return types come first for templates: "void c10::..." / "at::Tensor at::..."
  auto space = d.find(' ');
  if (space != std::string::npos && d.find('(') > space)
    for (const char* p : {"c10::", "at::", "torch::"})
      if (d.compare(space + 1, std::string(p).size(), p) == 0) return true;
  return false;
}

std::string newest_glibcxx(const platform::ElfObject& o) {
  std::string best;
  for (auto v : o.version_definitions()) {
    std::string s(v);
    if (s.rfind("GLIBCXX_", 0) == 0 && (best.empty() || version_less(best, s))) best = s;
  }
  return best;
}

std::map<std::string, std::string> newest_version_needs(const platform::ElfObject& o) {
  std::map<std::string, std::string> newest;
  for (const platform::VersionNeed& vn : o.version_needs()) {
    if (vn.weak) continue;
    std::string v(vn.version);
    auto us = v.rfind('_');  // GLIBC_2.28, CXXABI_1.3.11; GLIBC_PRIVATE and CXXABI_TM_1 are not numbered
    if (us == std::string::npos || us + 1 >= v.size() || !std::isdigit(static_cast<unsigned char>(v[us + 1])) ||
        v.find_first_not_of("0123456789.", us + 1) != std::string::npos)
      continue;
    std::string& best = newest[v.substr(0, us)];
    if (best.empty() || version_less(best, v)) best = v;
  }
  return newest;
}

std::vector<std::string> libstdcxx_with_version(const std::string& version, const std::string& except_real,
                                                const DiagnosisContext& ctx) {
  std::set<std::string> candidates;
  std::vector<std::string> dirs = ctx.libstdcxx_search;
  for (const char* d : {"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/lib64", "/usr/local/lib"})
    dirs.push_back(d);
  if (const char* c = std::getenv("CONDA_PREFIX")) dirs.push_back(std::string(c) + "/lib");
  std::error_code ec;
  // conda installations and their environments: the usual home of a newer libstdc++
  std::vector<std::string> conda_roots{"/opt/conda", "/opt/miniconda3", "/opt/miniforge3"};
  if (const char* home = std::getenv("HOME"))
    for (const char* n : {"miniconda3", "anaconda3", "miniforge3", "mambaforge", ".conda"})
      conda_roots.push_back(std::string(home) + "/" + n);
  for (const auto& root : conda_roots) {
    dirs.push_back(root + "/lib");
    for (const auto& e : fs::directory_iterator(root + "/envs", ec)) dirs.push_back(e.path().string() + "/lib");
  }
  for (const char* gcc : {"/usr/lib/gcc/x86_64-linux-gnu", "/usr/lib/gcc/x86_64-redhat-linux", "/usr/local/lib/gcc"})
    for (const auto& e : fs::directory_iterator(gcc, ec)) dirs.push_back(e.path().string());
  for (const auto& d : dirs) {
    std::string p = d + "/libstdc++.so.6";
    if (fs::exists(p, ec)) candidates.insert(real_path(p));
  }
  std::vector<std::string> out;
  for (const auto& c : candidates) {
    if (c == except_real || !ctx.cache) continue;
    std::string err;
    if (const platform::ElfObject* o = ctx.cache->get(c, &err); o && o->defines_version(version)) out.push_back(c);
  }
  return out;
}

std::vector<SymbolGroup> diagnose(const LoadGraph& g, const SymbolCheck& check, const DiagnosisContext& ctx) {
  std::vector<SymbolGroup> groups;
  std::map<std::string, std::size_t> index;  // group key -> position
  auto group = [&](const std::string& key, const std::string& category) -> SymbolGroup& {
    auto it = index.find(key);
    if (it != index.end()) return groups[it->second];
    index[key] = groups.size();
    groups.push_back({});
    groups.back().category = category;
    return groups.back();
  };
  auto add_needed_by = [](SymbolGroup& s, const std::string& who) {
    if (std::find(s.needed_by.begin(), s.needed_by.end(), who) == s.needed_by.end()) s.needed_by.push_back(who);
  };

  // 1. Versions the loader refuses outright ("version `X' not found (required by Y)").
  for (const auto& mv : check.versions) {
    const LoadedObject& provider = g.objects[mv.provider];
    const std::string who = g.objects[mv.object].path;
    bool cxx = mv.version.rfind("GLIBCXX_", 0) == 0 || mv.version.rfind("CXXABI_", 0) == 0;
    bool glibc = mv.version.rfind("GLIBC_", 0) == 0;
    std::string key = cxx ? "libstdcxx" : glibc ? "glibc" : "version:" + mv.file;
    SymbolGroup& s = group(key, cxx ? "libstdcxx" : glibc ? "glibc" : "version");
    s.symbols.push_back(mv.version + (mv.weak ? " (weak: loader only warns)" : ""));
    add_needed_by(s, who);
    if (cxx) {
      std::string have = newest_glibcxx(*provider.elf);
      auto newer = libstdcxx_with_version(mv.version, provider.real, ctx);
      s.cause = "the libstdc++ loaded here (" + provider.path + ", newest " + (have.empty() ? "?" : have) +
                ") is older than the one the object was built with";
      if (!newer.empty()) {
        s.cause += "; " + newer.front() + " on this machine has " + mv.version;
        const std::string dir = newer.front().substr(0, newer.front().rfind('/'));
        s.remedy = {remedy("put the newer libstdc++ first: LD_LIBRARY_PATH=" + dir +
                               " (or in conda: conda install -c conda-forge 'libstdcxx-ng>=<gcc of the build>')",
                           {"export LD_LIBRARY_PATH=" + dir + "${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"})};
      } else {
        s.remedy = {remedy("install a newer libstdc++ (conda: conda install -c conda-forge libstdcxx-ng; or a newer GCC "
                           "runtime), or rebuild the object with this machine's compiler",
                           {"conda install -c conda-forge libstdcxx-ng"})};
      }
    } else if (glibc) {
      s.cause = "the object was built on a system with a newer glibc than this one (" + provider.path + ")";
      s.remedy = {remedy("use a build made for an older glibc (manylinux wheel), or run on a newer OS image")};
    } else {
      s.cause = provider.path + " does not define version " + mv.version + ": the object was built against a newer " + mv.file;
      s.remedy = {remedy("install the " + mv.file + " the object was built against, or rebuild it against this one")};
    }
  }

  // 2. Missing symbols.
  std::vector<const LoadedObject*> torch_libs;
  for (const auto& o : g.objects) {
    auto so = std::string(o.elf->soname());
    bool deps_only = so.rfind("libtorch_global_deps", 0) == 0;  // an empty library that only pulls in CUDA
    if ((so.rfind("libc10", 0) == 0 || so.rfind("libtorch", 0) == 0) && !deps_only) torch_libs.push_back(&o);
  }
  // Loaded into the process, but RTLD_LOCAL by someone else (torch's libnccl): the loader does not look there.
  std::vector<bool> in_scope(g.objects.size(), false);
  for (int i : g.lookup_scope()) in_scope[i] = true;
  auto invisible_definer = [&](const MissingSymbol& ms) -> const LoadedObject* {
    for (std::size_t i = 0; i < g.objects.size(); ++i)
      if (!in_scope[i] && satisfies(*g.objects[i].elf, ms.name, ms.version)) return &g.objects[i];
    return nullptr;
  };
  std::map<const platform::ElfObject*, CxxAbiUse> abi_memo;  // scanning libtorch's symbols once, not per symbol
  auto abi_of = [&](const platform::ElfObject* o) -> const CxxAbiUse& {
    auto it = abi_memo.find(o);
    if (it == abi_memo.end()) it = abi_memo.emplace(o, detect_cxx_abi(*o)).first;
    return it->second;
  };
  for (const auto& ms : check.symbols) {
    const LoadedObject& obj = g.objects[ms.object];
    std::string shown = demangle(ms.name) + (ms.version.empty() ? "" : "@" + ms.version);
    // A symbol whose version is already reported missing belongs to that group.
    bool in_version_group = false;
    for (const auto& mv : check.versions)
      if (mv.object == ms.object && mv.version == ms.version) in_version_group = true;
    if (in_version_group) continue;

    std::string d = demangle(ms.name);
    SymbolGroup* s = nullptr;
    if (const LoadedObject* hidden = invisible_definer(ms)) {
      std::string so(hidden->elf->soname().empty() ? hidden->path : std::string(hidden->elf->soname()));
      s = &group("not_visible:" + so, "not_visible");
      if (s->cause.empty()) {
        const LoadedObject* first = hidden;  // the preload whose dlopen brought it in
        while (first->loader >= 0) first = &g.objects[first->loader];
        s->cause = "defined by " + hidden->path + ", which the process already has, but loaded RTLD_LOCAL (" +
                   (first == hidden ? "opened on its own" : "by the dlopen of " + first->path) +
                   "): invisible to this object, which does not link " + so;
        std::string dir = hidden->path.substr(0, hidden->path.rfind('/'));
        std::string stem = so.rfind("lib", 0) == 0 ? so.substr(3, so.find(".so") - 3) : so;
        s->remedy = {remedy("relink the object with its library (-l" + stem + " -L" + dir + "), or load it globally first: TORCH_USE_RTLD_GLOBAL=1 for torch's libraries, "
                            "or LD_PRELOAD=" + hidden->path,
                            {"export LD_PRELOAD=" + hidden->path + "${LD_PRELOAD:+:$LD_PRELOAD}"})};
      }
    } else if (is_torch_symbol(d)) {
      const CxxAbiUse& mine = abi_of(obj.elf);
      CxxAbi torch_abi = CxxAbi::kUnknown;
      std::string torch_where;
      for (const auto* t : torch_libs) {
        const CxxAbiUse& u = abi_of(t->elf);
        if (u.abi == CxxAbi::kOld || u.abi == CxxAbi::kNew) {
          torch_abi = u.abi;
          torch_where = t->path;
          break;
        }
      }
      bool abi_mismatch = (mine.abi == CxxAbi::kOld || mine.abi == CxxAbi::kNew) &&
                          (torch_abi == CxxAbi::kOld || torch_abi == CxxAbi::kNew) && mine.abi != torch_abi;
      if (abi_mismatch) {
        s = &group("cxx_abi", "cxx_abi");
        s->cause = "C++ ABI mismatch: " + obj.path + " was built with " + cxx_abi_sentence(mine.abi) + " but " +
                   torch_where + " uses " + cxx_abi_sentence(torch_abi);
        s->remedy = {remedy("rebuild with -D" + cxx_abi_sentence(torch_abi) +
                            " (torch.compiled_with_cxx11_abi() tells which), or install the wheel built for this torch's ABI")};
      } else {
        s = &group("torch", "torch");
        s->cause = torch_libs.empty()
                       ? "torch/c10 symbols but no libtorch/libc10 in the load closure: the module expects torch to be "
                         "loaded first (audit with --with-torch) or was built against another torch"
                       : "not defined by the torch being loaded (" + torch_libs.front()->path +
                             "): built against another torch version";
        s->remedy = {remedy("rebuild the extension for this torch (pip install --no-build-isolation --no-cache-dir "
                            "--force-reinstall --no-deps <pkg>: the cache may hold the old build, and without "
                            "--no-deps torch is reinstalled too), or install the torch it was built against")};
      }
    } else if (!ms.version.empty() && (ms.version.rfind("GLIBCXX_", 0) == 0 || ms.version.rfind("CXXABI_", 0) == 0)) {
      s = &group("libstdcxx", "libstdcxx");
      if (s->cause.empty()) s->cause = "symbols of a newer libstdc++ than the one loaded here";
    } else if (!ms.version.empty() && ms.version.rfind("GLIBC_", 0) == 0) {
      s = &group("glibc", "glibc");
      if (s->cause.empty()) s->cause = "symbols of a newer glibc than this system's";
    } else {
      const SymbolOwner* owner = nullptr;
      if (ms.name.rfind("_Z", 0) != 0)
        for (const auto& o : ctx.owners)
          if (ms.name.rfind(o.prefix, 0) == 0) {
            owner = &o;
            break;
          }
      std::string twin = ms.name.rfind("_Z", 0) == 0 && check.symbols.size() <= 200 ? abi_twin(g, ms.name) : "";
      if (!twin.empty()) {
        s = &group("cxx_abi", "cxx_abi");
        if (s->cause.empty()) {
          const CxxAbiUse& mine = abi_of(obj.elf);
          s->cause = "C++ ABI mismatch: " + obj.path + " was built with " + cxx_abi_sentence(mine.abi) +
                     " but the closure defines these with the other string ABI (" + twin + ")";
          s->remedy = {remedy("rebuild with the same -D_GLIBCXX_USE_CXX11_ABI as the library that defines them")};
        }
      } else if (owner) {
        s = &group("lib:" + owner->library, "library_api");
        bool linked = false;
        std::string stem = owner->library.substr(0, owner->library.find(".so"));
        for (const auto& o : g.objects)
          if (std::string(o.elf->soname()).rfind(stem, 0) == 0) linked = true;
        if (!owner->link_flag.empty() && owner->link_flag[0] == '(') {
          s->cause = owner->library + " symbols: provided by the process that loads this object, not by a library it links";
          s->remedy = {remedy("audit it as part of a Python environment (--python PATH, --python-package NAME), or --preload the interpreter")};
        } else if (linked) {
          s->cause = owner->library + " is loaded but does not define these: it is older than the one the object was built against";
          s->remedy = {remedy("install the " + owner->library + " (" + owner->package + ") the object was built against")};
        } else {
          s->cause = owner->library + " API, but no " + owner->library + " is in the load closure: the library was "
                     "never linked (no DT_NEEDED for it)";
          s->remedy = {remedy("relink the object with " + owner->link_flag + " (or load " + owner->library +
                              " before it, e.g. --preload)")};
        }
      } else {
        s = &group("other", "other");
        s->cause = "defined by no object in the load closure";
        s->remedy = {remedy("find the library that defines it (nm -D --defined-only) and link or preload it")};
      }
    }
    s->symbols.push_back(shown);
    s->mangled.push_back(ms.name);
    add_needed_by(*s, obj.path);
  }
  return groups;
}

}  // namespace gpucheck::abi
