#include "checks/abi/audit.h"
#include "checks/abi/fatbin_cache.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <map>
#include <set>
#include <tuple>

#include "core/errors.h"
#include "core/subprocess.h"
#include "core/text.h"

namespace gpucheck::abi {

std::vector<FatbinInfo> read_registered_fatbins(const platform::ElfObject& o) {
  std::vector<FatbinInfo> out;
  // A section this large holds thousands of entries whose headers cost thousands of reads (libcublasLt's:
  // ~2,300): remembered between runs (fatbin_cache.h). A small one is read faster than a cache file.
  constexpr std::uint64_t kRememberFrom = std::uint64_t{1} << 20;
  for (const char* name : {".nv_fatbin", "__nv_relfatbin"}) {
    const platform::Section* section = nullptr;
    for (const auto& s : o.sections())
      if (s.name == name) section = &s;
    if (!section) continue;
    FatbinInfo f;
    f.section = name;
    const bool worth_remembering = section->size >= kRememberFrom;
    if (auto remembered = worth_remembering ? cached_fatbin(o.path(), name) : std::nullopt) {
      f.entries = std::move(*remembered);
      out.push_back(std::move(f));
      continue;
    }
    try {
      f.entries = parse_fatbin(o.section_source(name));  // entry headers only: payloads are skipped
      if (worth_remembering) remember_fatbin(o.path(), name, f.entries);
    } catch (const FatbinError& e) {
      f.error = e.what();
    }
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<FatbinInfo> read_embedded_fatbins(const platform::ElfObject& o) {
  // Kernels a library registers itself live in its data sections (cuFFT: .ldata).
  std::vector<FatbinInfo> out;
  for (const auto& s : o.sections()) {
    if (s.type != 1 /* SHT_PROGBITS */ || s.name == ".nv_fatbin" || s.name == "__nv_relfatbin" || s.size < 64) continue;
    if (s.name.find("data") == std::string::npos) continue;  // .rodata .lrodata .data .ldata .data.rel.ro
    std::size_t containers = 0;
    auto entries = scan_embedded_fatbins(o.section_source(s.name), s.offset, &containers);
    if (containers == 0) continue;
    FatbinInfo f;
    f.section = s.name + " (" + std::to_string(containers) + " embedded fatbins)";
    f.entries = std::move(entries);
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<FatbinInfo> read_fatbins(const platform::ElfObject& o) {
  auto out = read_registered_fatbins(o);
  auto embedded = read_embedded_fatbins(o);
  out.insert(out.end(), std::make_move_iterator(embedded.begin()), std::make_move_iterator(embedded.end()));
  return out;
}

Auditor::Auditor(AuditOptions options) : opt_(std::move(options)), ptx_(PtxIsaTable::load()) {
  diag_.owners = load_symbol_owners();
  diag_.cache = &cache_;
}

namespace {

const char* fatbin_kind_name(FatbinKind k) {
  return k == FatbinKind::kPtx ? "ptx" : k == FatbinKind::kSass ? "sass" : "other";
}

/// Objects that only ever live inside a Python process: extension modules (PyInit_*) and libraries
/// importing the C API (libtorch_python). Their Py* symbols come from the interpreter.
bool lives_in_python(const platform::ElfObject& o) {
  for (const auto& s : o.symbols()) {
    if (s.exported && s.name.rfind("PyInit_", 0) == 0) return true;
    if (!s.defined && (s.name.rfind("Py", 0) == 0 || s.name.rfind("_Py", 0) == 0)) return true;
  }
  return false;
}

/// The ELF executable behind a python command (pyenv and conda put shell shims on PATH).
std::string python_executable(const std::string& python) {
  std::string exe = python.find('/') == std::string::npos ? find_in_path(python) : python;
  if (exe.empty()) return "";
  if (platform::ElfObject::loadable_mismatch(exe).empty()) return exe;
  SubprocessOptions o;
  o.timeout = std::chrono::seconds(20);
  auto r = run_subprocess({exe, "-I", "-S", "-c", "import sys; print(sys.executable)"}, o);
  return r.ok() ? trim(r.out) : "";
}

std::string sass_key(const FatbinEntry& e) { return "sm_" + std::to_string(e.arch) + (e.suffix == "a" ? "a" : ""); }

std::string strip_family(std::string s) {
  if (!s.empty() && s.back() == 'f') s.pop_back();
  return s;
}

}  // namespace

void Auditor::read_device_code(const platform::ElfObject& o, TargetReport& t) const {
  t.fatbins = read_registered_fatbins(o);
  // Scanning data sections for embedded fat binaries reads every byte of them (160 MB for cuBLASLt, which
  // has none): done only when it can change a verdict, i.e. some GPU lacks SASS for exactly its
  // architecture in the registered sections (nothing found elsewhere could beat that), or when asked for
  // the complete listing.
  std::vector<FatbinEntry> merged;
  if (t.fatbins.size() > 1)
    for (const auto& f : t.fatbins) merged.insert(merged.end(), f.entries.begin(), f.entries.end());
  const std::vector<FatbinEntry>& registered = t.fatbins.size() == 1 ? t.fatbins[0].entries : merged;
  bool verdict_open = std::any_of(opt_.gpus.begin(), opt_.gpus.end(), [&](const GpuTarget& g) {
    GpuVerdict v = judge(g, registered, ptx_);
    std::string exact = "sm_" + std::to_string(g.cc_major * 10 + g.cc_minor);
    bool same_arch = v.using_target.rfind(exact, 0) == 0 &&
                     (v.using_target.size() == exact.size() || std::isalpha(static_cast<unsigned char>(v.using_target[exact.size()])));
    return v.verdict != KernelVerdict::kNative || !same_arch;
  });
  if (opt_.all_device_code || verdict_open) {
    auto embedded = read_embedded_fatbins(o);
    t.fatbins.insert(t.fatbins.end(), std::make_move_iterator(embedded.begin()), std::make_move_iterator(embedded.end()));
    t.data_sections = "scanned";
  } else {
    t.data_sections = opt_.gpus.empty() ? "not scanned: no GPU to judge (--gpu, or --all-device-code to list)"
                                        : "not scanned: every GPU has native code in the registered fat binaries";
  }
}

TargetReport Auditor::audit(const std::string& path) {
  TargetReport t;
  t.path = path;
  auto problem = [&t](std::string kind, std::string line) {
    t.problem_kinds.push_back(std::move(kind));
    t.problems.push_back(std::move(line));
  };
  std::string err;
  const platform::ElfObject* root = cache_.get(path, &err);
  if (!root) {
    t.error = err;
    t.status = Status::kError;
    problem("unusable_object", err);
    return t;
  }
  // The process the target is imported into: its interpreter (global), what `import torch` loaded
  // (global deps global, _C local), then the user's --preload (global).
  std::vector<Preload> torch_loads = opt_.torch_loads;
  std::string python = opt_.python;
  t.host.chosen_by = opt_.torch_chosen_by;
  t.host.how = opt_.torch_how;
  if (torch_loads.empty() && opt_.site_torch && links_torch(*root)) {
    std::string site = enclosing_site_packages(path);
    std::string torch_dir = site_torch_dir(site);
    bool is_torch_itself = !torch_dir.empty() && real_path(path).rfind(real_path(torch_dir) + "/", 0) == 0;
    if (!torch_dir.empty() && !is_torch_itself) {
      auto it = torch_imports_.find(torch_dir);
      if (it == torch_imports_.end()) {
        TorchImport ti;
        try {
          ti = torch_import(torch_dir, opt_.torch_rtld_global);
        } catch (const InputError& e) {  // an unusable torch there: judged without it, and said so
          ti.how = std::string("not imported: ") + e.what();
        }
        it = torch_imports_.emplace(torch_dir, std::move(ti)).first;
      }
      torch_loads = it->second.loads;
      t.host.torch_dir = torch_dir;
      t.host.chosen_by = "site-packages of the target";
      t.host.how = it->second.how;
      if (!opt_.python_given)
        if (std::string own = site_python(site); !own.empty()) python = own;
    }
  }
  if (t.host.torch_dir.empty()) t.host.torch_dir = opt_.torch_dir;
  std::vector<Preload> preload;
  if (!python.empty() && lives_in_python(*root)) {
    auto it = python_exe_.find(python);  // resolving a shim costs a process start: once per audit
    if (it == python_exe_.end()) it = python_exe_.emplace(python, python_executable(python)).first;
    const std::string& exe = it->second;
    if (!exe.empty()) preload.push_back({exe, true});
    t.host.python = exe;
  }
  preload.insert(preload.end(), torch_loads.begin(), torch_loads.end());
  for (const auto& p : opt_.preload) preload.push_back({p, true});
  try {
    t.graph = build_load_graph(path, preload, opt_.loader, cache_);
    std::vector<bool> visible(t.graph.objects.size(), false);
    for (int i : t.graph.lookup_scope()) visible[i] = true;
    for (std::size_t i = 0; i < t.graph.objects.size(); ++i)
      if (t.graph.objects[i].preloaded) (visible[i] ? t.host.visible : t.host.not_visible).push_back(t.graph.objects[i].path);
  } catch (const platform::ElfError& e) {
    t.error = e.what();
    t.status = Status::kError;
    problem("unusable_object", t.error);
    return t;
  }

  for (const Dependency* d : t.graph.missing())
    problem("missing_library", d->name + " (needed by " + t.graph.objects[d->requester].path + "): " + d->error);

  if (opt_.symbols) {
    t.symbols_checked = true;
    t.check = check_symbols(t.graph, &binding_);
    t.groups = diagnose(t.graph, t.check, diag_);
    for (const auto& g : t.groups)
      problem("symbols." + g.category, std::to_string(g.symbols.size()) + " " + g.category + ": " + g.cause);
  }

  t.cxx_abi = detect_cxx_abi(*root);
  t.version_needs = newest_version_needs(*root);  // while the object is alive (its strings are views)
  for (const auto& o : t.graph.objects) {
    std::string so(o.elf->soname());
    if (&o - &t.graph.objects[0] == t.graph.root) continue;
    if (so.rfind("libc10.so", 0) == 0 || so.rfind("libtorch_cpu.so", 0) == 0 || so.rfind("libtorch.so", 0) == 0) {
      auto u = detect_cxx_abi(*o.elf);
      if (u.abi == CxxAbi::kOld || u.abi == CxxAbi::kNew) {
        t.torch_path = o.path;
        t.torch_cxx_abi = u;
        break;
      }
    }
  }
  if (!t.torch_path.empty() && (t.cxx_abi.abi == CxxAbi::kOld || t.cxx_abi.abi == CxxAbi::kNew) &&
      t.cxx_abi.abi != t.torch_cxx_abi.abi) {
    t.cxx_abi_mismatch = true;
    bool already = std::any_of(t.groups.begin(), t.groups.end(), [](const SymbolGroup& g) { return g.category == "cxx_abi"; });
    if (!already)
      problem("cxx_abi", "C++ ABI mismatch: built with " + t.cxx_abi.macro() + ", " + t.torch_path + " uses " +
                             t.torch_cxx_abi.macro());
  }

  try {
    read_device_code(*root, t);
  } catch (const platform::ElfError& e) {  // the file changed under us (truncated, rewritten): nothing else is sure
    t = TargetReport{};
    t.path = path;
    t.error = e.what();
    t.status = Status::kError;
    problem("unusable_object", t.error);
    return t;
  }
  std::vector<FatbinEntry> all;
  for (const auto& f : t.fatbins) {
    if (!f.error.empty()) problem("bad_fatbin", f.section + ": " + f.error);
    all.insert(all.end(), f.entries.begin(), f.entries.end());
  }
  if (!all.empty())
    for (const auto& gpu : opt_.gpus) {
      t.verdicts.push_back(judge(gpu, all, ptx_));
      const auto& v = t.verdicts.back();
      if (v.verdict == KernelVerdict::kNone || v.verdict == KernelVerdict::kPtxTooNew)
        problem("device_code", gpu.label + ": " + v.detail);
    }
  bool registered = std::any_of(t.fatbins.begin(), t.fatbins.end(), [](const FatbinInfo& f) {
    return f.section == ".nv_fatbin" || f.section == "__nv_relfatbin";
  });
  if (registered && !opt_.cuobjdump.empty()) {
    t.cuobjdump = run_cuobjdump(opt_.cuobjdump, path);
    // cuobjdump lists the executable fatbin when there is one, else the relocatable one.
    const FatbinInfo* f = &t.fatbins.front();
    for (const auto& fb : t.fatbins)
      if (fb.section == ".nv_fatbin") f = &fb;
    std::multiset<std::string> mine_sass, mine_ptx, theirs_sass, theirs_ptx;
    for (const auto& e : f->entries) {
      if (e.kind == FatbinKind::kSass) mine_sass.insert(sass_key(e));
      if (e.kind == FatbinKind::kPtx) mine_ptx.insert("sm_" + std::to_string(e.arch) + e.suffix);
    }
    for (const auto& s : t.cuobjdump.sass) theirs_sass.insert(strip_family(s));
    for (const auto& s : t.cuobjdump.ptx) theirs_ptx.insert(s);
    if (t.cuobjdump.ran && t.cuobjdump.error.empty() && (mine_sass != theirs_sass || mine_ptx != theirs_ptx))
      t.cuobjdump_disagreement = "parser found " + std::to_string(mine_sass.size()) + " SASS + " +
                                 std::to_string(mine_ptx.size()) + " PTX, cuobjdump " + std::to_string(theirs_sass.size()) +
                                 " SASS + " + std::to_string(theirs_ptx.size()) + " PTX";
  }

  // fail: the import or a kernel launch would fail. warn: the loader only warns (weak version needs), or
  // the fatbin parser and cuobjdump disagree (the CUDA verdicts may be wrong).
  bool hard_version = std::any_of(t.check.versions.begin(), t.check.versions.end(), [](const MissingVersion& v) { return !v.weak; });
  bool no_kernel = std::any_of(t.verdicts.begin(), t.verdicts.end(), [](const GpuVerdict& v) {
    return v.verdict == KernelVerdict::kNone || v.verdict == KernelVerdict::kPtxTooNew;
  });
  bool bad_fatbin = std::any_of(t.fatbins.begin(), t.fatbins.end(), [](const FatbinInfo& f) { return !f.error.empty(); });
  if (!t.graph.missing().empty() || !t.check.symbols.empty() || hard_version || t.cxx_abi_mismatch || no_kernel || bad_fatbin)
    t.status = Status::kFail;
  else if (!t.check.versions.empty() || !t.cuobjdump_disagreement.empty())
    t.status = Status::kWarn;
  if (!t.cuobjdump_disagreement.empty()) problem("cuobjdump_disagrees", "cuobjdump disagrees: " + t.cuobjdump_disagreement);
  return t;
}

AuditReport Auditor::audit_all(const std::vector<std::string>& paths) {
  AuditReport r;
  auto t0 = std::chrono::steady_clock::now();
  for (const auto& p : paths) {
    r.targets.push_back(audit(p));
    r.status = worst(r.status, r.targets.back().status);
  }
  r.objects_parsed = cache_.size();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

nlohmann::json to_json(const TargetReport& t) {
  using nlohmann::json;
  json j = {{"path", t.path}, {"status", to_string(t.status)}, {"problems", t.problems}};
  if (!t.error.empty()) {
    j["error"] = t.error;
    return j;
  }
  json deps = json::array();
  for (const auto& d : t.graph.deps) {
    json dj = {{"name", d.name}, {"requested_by", t.graph.objects[d.requester].path}, {"found", d.object >= 0}};
    if (d.object >= 0) {
      dj["path"] = t.graph.objects[d.object].path;
      dj["via"] = d.via;
    } else {
      dj["error"] = d.error;
      json s = json::array();
      for (const auto& a : d.searched) s.push_back({{"path", a.path}, {"source", a.source}, {"outcome", a.outcome}});
      dj["searched"] = s;
    }
    deps.push_back(dj);
  }
  j["dependencies"] = deps;
  j["process"] = {{"python", t.host.python}, {"torch", t.host.torch_dir}, {"chosen_by", t.host.chosen_by},
                  {"how", t.host.how}, {"visible", t.host.visible}, {"not_visible", t.host.not_visible}};
  // The oldest system it loads on: the newest version of each namespace the file itself requires.
  j["version_needs"] = t.version_needs;
  json groups = json::array();
  for (const auto& g : t.groups) {
    std::vector<std::string> remedy;  // the sentences; their commands are in the Finding's fixes
    for (const auto& fx : g.remedy) remedy.push_back(fx.summary);
    groups.push_back({{"category", g.category}, {"cause", g.cause}, {"remedy", remedy}, {"symbols", g.symbols},
                      {"mangled", g.mangled}, {"needed_by", g.needed_by}});
  }
  j["symbols"] = {{"references_checked", t.check.references_checked},
                  {"missing", t.check.symbols.size()},
                  {"missing_versions", t.check.versions.size()},
                  {"groups", groups}};
  auto abi_json = [](const CxxAbiUse& u) {
    return json{{"abi", to_string(u.abi)}, {"macro", u.macro()}, {"new_abi_symbols", u.new_abi_symbols},
                {"old_abi_symbols", u.old_abi_symbols}, {"example", u.example}};
  };
  j["cxx_abi"] = abi_json(t.cxx_abi);
  if (!t.torch_path.empty()) j["torch"] = {{"path", t.torch_path}, {"cxx_abi", abi_json(t.torch_cxx_abi)},
                                          {"mismatch", t.cxx_abi_mismatch}};
  if (!t.fatbins.empty()) {
    json fb = json::array();
    std::set<std::string> sass, ptx;
    for (const auto& f : t.fatbins) {
      // Every entry for ordinary objects; libraries with thousands (cuFFT: ~24,000) get the per-target
      // summary only, which is what the verdicts use. Counted in plain structs, not json: building a json
      // object per entry was 80% of the instructions of `abi libcublasLt` (5,737 entries).
      constexpr std::size_t kListLimit = 256;
      const bool list = f.entries.size() <= kListLimit;
      // Grouped by the entry's fields first (5,737 entries in libcublasLt, a few dozen groups); the
      // strings are made once per group.
      using GroupKey = std::tuple<FatbinKind, unsigned, std::string, unsigned, unsigned>;
      struct Group {
        std::size_t first = 0;  // index of its first entry: the first kind seen names a target's summary
        int count = 0, compressed = 0;
      };
      std::map<GroupKey, Group> groups;
      json entries = json::array();
      // Entries come in runs of one group (a kernel's objects for each arch in turn): the previous entry's
      // group is tried before the map, which spared most of 5,737 lookups keyed by a string.
      GroupKey last_key;
      Group* last = nullptr;
      for (const auto& e : f.entries) {
        GroupKey key{e.kind, e.arch, e.suffix, e.kind == FatbinKind::kPtx ? e.ptx_major : 0,
                     e.kind == FatbinKind::kPtx ? e.ptx_minor : 0};
        if (!last || key != last_key) {
          last = &groups[key];
          last_key = std::move(key);
        }
        Group& g = *last;
        if (g.count++ == 0) g.first = static_cast<std::size_t>(&e - f.entries.data());
        g.compressed += e.compressed ? 1 : 0;
        if (list) {
          json ej = {{"kind", fatbin_kind_name(e.kind)}, {"target", e.target()}, {"compressed", e.compressed},
                     {"size", e.payload_size}, {"uncompressed_size", e.uncompressed_size}};
          if (e.kind == FatbinKind::kPtx) ej["ptx_isa"] = std::to_string(e.ptx_major) + "." + std::to_string(e.ptx_minor);
          entries.push_back(std::move(ej));
        }
      }
      // Keyed by "sm_90" or "compute_90 ISA 8.4" (the order of the list), groups met in file order.
      std::vector<std::pair<const GroupKey*, const Group*>> in_order;
      for (const auto& [k, g] : groups) in_order.emplace_back(&k, &g);
      std::sort(in_order.begin(), in_order.end(), [](const auto& a, const auto& b) { return a.second->first < b.second->first; });
      std::map<std::string, json> by_target;
      for (const auto& [kp, gp] : in_order) {
        const auto& [kind, arch, suffix, major, minor] = *kp;
        const Group& g = *gp;
        FatbinEntry e;
        e.kind = kind, e.arch = arch, e.suffix = suffix;
        const std::string target = e.target(), isa = std::to_string(major) + "." + std::to_string(minor);
        const bool is_ptx = kind == FatbinKind::kPtx;
        if (is_ptx) ptx.insert(target + " (ISA " + isa + ")");
        if (kind == FatbinKind::kSass) sass.insert(target);
        json& agg = by_target[target + (is_ptx ? " ISA " + isa : "")];
        if (agg.is_null()) agg = {{"kind", fatbin_kind_name(kind)}, {"target", target}, {"count", 0}, {"compressed", 0}};
        if (is_ptx) agg["ptx_isa"] = isa;
        agg["count"] = agg["count"].get<int>() + g.count;
        agg["compressed"] = agg["compressed"].get<int>() + g.compressed;
      }
      json summary = json::array();
      for (auto& [key, v] : by_target) summary.push_back(std::move(v));
      json fj = {{"section", f.section}, {"entries", f.entries.size()}, {"by_target", summary}};
      if (list) fj["list"] = std::move(entries);
      if (!f.error.empty()) fj["error"] = f.error;
      fb.push_back(fj);
    }
    json gpus = json::array();
    for (const auto& v : t.verdicts)
      gpus.push_back({{"gpu", v.gpu.label}, {"verdict", to_string(v.verdict)}, {"using", v.using_target}, {"detail", v.detail}});
    j["cuda"] = {{"fatbins", fb}, {"sass", sass}, {"ptx", ptx}, {"gpus", gpus}, {"data_sections", t.data_sections}};
    if (t.cuobjdump.ran || !t.cuobjdump.error.empty())
      j["cuda"]["cuobjdump"] = {{"ran", t.cuobjdump.ran}, {"sass", t.cuobjdump.sass}, {"ptx", t.cuobjdump.ptx},
                                {"agrees", t.cuobjdump_disagreement.empty()}, {"disagreement", t.cuobjdump_disagreement},
                                {"error", t.cuobjdump.error}};
  }
  return j;
}

nlohmann::json to_json(const AuditReport& r) {
  nlohmann::json targets = nlohmann::json::array();
  for (const auto& t : r.targets) targets.push_back(to_json(t));
  return {{"status", to_string(r.status)}, {"targets", targets}, {"notes", r.notes},
          {"objects_parsed", r.objects_parsed}, {"seconds", r.seconds}};
}

}  // namespace gpucheck::abi
