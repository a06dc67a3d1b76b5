#include "checks/abi/loader.h"

#include <dlfcn.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <map>

#include "checks/abi/loader_help.h"
#include "core/text.h"
#include "platform/root_fs.h"

namespace gpucheck::abi {
namespace {

#if defined(__aarch64__)
constexpr const char* kInterpreter = "/lib/ld-linux-aarch64.so.1";
#else
constexpr const char* kInterpreter = "/lib64/ld-linux-x86-64.so.2";
#endif

std::string absolute(const std::string& path) {
  if (!path.empty() && path[0] == '/') return path;
  char cwd[PATH_MAX];
  if (!getcwd(cwd, sizeof cwd)) return path;
  return std::string(cwd) + "/" + path;
}

bool is_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace

LoaderConfig LoaderConfig::for_this_host(const platform::LdCache* cache) {
  LoaderConfig c;
  c.cache = cache;
  if (const char* llp = std::getenv("LD_LIBRARY_PATH"); llp && *llp) {
    // glibc splits on ':' and ';'
    std::string s = llp;
    for (auto& ch : s)
      if (ch == ';') ch = ':';
    c.ld_library_path = split(s, ':');
  }
  static const LoaderHelp help = query_loader_help(kInterpreter, default_loader_help_cache());
  c.default_dirs = help.system_dirs;
  if (c.default_dirs.empty()) {
#if defined(__x86_64__)
    c.default_dirs = {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib"};
#else
    c.default_dirs = {"/lib64", "/usr/lib64", "/lib", "/usr/lib"};
#endif
  }
  c.platform = help.platform;
  if (c.platform.empty()) {
    const char* p = reinterpret_cast<const char*>(getauxval(AT_PLATFORM));
    c.platform = p ? p : "";
  }
  // $LIB is glibc's slibdir without the leading '/': where the loader found libc.so.6 (not symlink-resolved,
  // so a merged /usr still gives "lib/x86_64-linux-gnu").
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&::getpid), &info) && info.dli_fname && info.dli_fname[0] == '/')
    c.lib = parent_dir(info.dli_fname).substr(1);
  if (c.lib.empty()) c.lib = "lib64";
  for (const auto& v : help.glibc_hwcaps) c.hwcap_subdirs.push_back("glibc-hwcaps/" + v);
  // Legacy hwcap directories: every subset of (tls, platform, other names) in the order glibc 2.36 tries
  // them, longest combinations first.
  std::vector<std::string> legacy;
  if (std::find(help.legacy.begin(), help.legacy.end(), "tls") != help.legacy.end()) legacy.push_back("tls");
  for (const auto& n : help.legacy)
    if (n != "tls") legacy.push_back(n);
  if (!legacy.empty() && legacy.size() < 12) {
    unsigned n = static_cast<unsigned>(legacy.size());
    for (unsigned mask = (1u << n) - 1; mask > 0; --mask) {
      std::string sub;
      for (unsigned i = 0; i < n; ++i)
        if (mask & (1u << (n - 1 - i))) sub += (sub.empty() ? "" : "/") + legacy[i];
      c.hwcap_subdirs.push_back(sub);
    }
  }
  return c;
}

std::string expand_dst(const std::string& element, const std::string& origin, const LoaderConfig& cfg) {
  std::string out;
  for (std::size_t i = 0; i < element.size();) {
    if (element[i] != '$') {
      out += element[i++];
      continue;
    }
    auto token = [&](const char* name, const std::string& value) {
      std::string n = name, braced = "{" + n + "}";
      if (element.compare(i + 1, braced.size(), braced) == 0) {
        out += value;
        i += 1 + braced.size();
        return true;
      }
      if (element.compare(i + 1, n.size(), n) == 0) {
        char next = i + 1 + n.size() < element.size() ? element[i + 1 + n.size()] : '/';
        if (!(std::isalnum(static_cast<unsigned char>(next)) || next == '_')) {
          out += value;
          i += 1 + n.size();
          return true;
        }
      }
      return false;
    };
    if (token("ORIGIN", origin) || token("LIB", cfg.lib) || token("PLATFORM", cfg.platform)) continue;
    out += element[i++];
  }
  return out;
}

std::vector<int> LoadGraph::lookup_scope() const {
  std::size_t n = objects.size();
  std::vector<std::vector<int>> edges(n);
  for (const auto& d : deps)
    if (d.object >= 0) edges[d.requester].push_back(d.object);
  std::vector<bool> in(n, false);
  auto reach = [&](int from) {
    std::vector<int> stack{from};
    in[from] = true;
    while (!stack.empty()) {
      int k = stack.back();
      stack.pop_back();
      for (int e : edges[k])
        if (!in[e]) {
          in[e] = true;
          stack.push_back(e);
        }
    }
  };
  for (std::size_t i = 0; i < n; ++i)
    if (objects[i].global) reach(static_cast<int>(i));
  if (root >= 0) reach(root);
  std::vector<int> out;
  for (std::size_t i = 0; i < n; ++i)
    if (in[i]) out.push_back(static_cast<int>(i));
  return out;
}

std::vector<const Dependency*> LoadGraph::missing() const {
  std::vector<const Dependency*> out;
  for (const auto& d : deps)
    if (d.object < 0) out.push_back(&d);
  return out;
}

namespace {

class GraphBuilder {
 public:
  GraphBuilder(const LoaderConfig& cfg, ObjectCache& cache) : cfg_(cfg), cache_(cache) {}
  /// Continues a graph built earlier.
  GraphBuilder(LoadGraph existing, const LoaderConfig& cfg, ObjectCache& cache)
      : g(std::move(existing)), cfg_(cfg), cache_(cache) {
    for (std::size_t i = 0; i < g.objects.size(); ++i) by_real_[g.objects[i].real] = static_cast<int>(i);
  }

  LoadGraph g;

  /// dlopen(name) from code in `req`: one dependency resolved like a DT_NEEDED entry of `req`, then closed over.
  int open_from(int req, const std::string& name) {
    Dependency d;
    d.requester = req;
    d.name = name;
    int before = static_cast<int>(g.objects.size());
    d.object = resolve(req, d);
    int obj = d.object;
    g.deps.push_back(std::move(d));
    if (obj >= before) close_over(obj);
    return obj;
  }

  int add(const std::string& name, const std::string& path, int loader, bool preloaded, std::string* error) {
    std::string real = real_path(path);
    if (auto it = by_real_.find(real); it != by_real_.end()) return it->second;  // same file (dev/ino in glibc)
    const platform::ElfObject* elf = cache_.get(path, error);
    if (!elf) return -1;
    LoadedObject o{name, path, real, elf, loader, preloaded};
    g.objects.push_back(o);
    int idx = static_cast<int>(g.objects.size()) - 1;
    by_real_[real] = idx;
    return idx;
  }

  /// Breadth-first over DT_NEEDED starting at object `first` (glibc _dl_map_object_deps).
  void close_over(int first) {
    std::vector<int> queue{first};
    for (std::size_t k = 0; k < queue.size(); ++k) {
      int req = queue[k];
      for (auto needed : g.objects[req].elf->needed()) {
        Dependency d;
        d.requester = req;
        d.name = std::string(needed);
        int before = static_cast<int>(g.objects.size());
        d.object = resolve(req, d);
        if (d.object >= before) queue.push_back(d.object);
        g.deps.push_back(std::move(d));
      }
    }
  }

 private:
  int already_loaded(const std::string& name) const {
    // glibc _dl_name_match_p: the name it was loaded as, or its DT_SONAME.
    for (std::size_t i = 0; i < g.objects.size(); ++i) {
      const auto& o = g.objects[i];
      if (o.name == name || o.elf->soname() == name) return static_cast<int>(i);
    }
    return -1;
  }

  std::string origin_of(int idx) const { return parent_dir(absolute(g.objects[idx].path)); }

  /// Tries `dir/name`; returns the object index when it is a loadable object.
  int try_dir(const std::string& dir, const std::string& name, const std::string& source, int req, Dependency& d) {
    std::string base = dir.empty() ? std::string(".") : dir;
    for (const auto& sub : cfg_.hwcap_subdirs) {  // only hits are recorded: the misses would drown the list
      std::string candidate = base + "/" + sub + "/" + name;
      if (is_file(candidate)) {
        int idx = try_file(candidate, name, source, req, d);
        if (idx >= 0) return idx;
      }
    }
    std::string candidate = base + "/" + name;
    if (!is_file(candidate)) {
      d.searched.push_back({candidate, source, "absent"});
      return -1;
    }
    return try_file(candidate, name, source, req, d);
  }

  int try_file(const std::string& candidate, const std::string& name, const std::string& source, int req, Dependency& d) {
    std::string mismatch = platform::ElfObject::loadable_mismatch(candidate);
    if (!mismatch.empty()) {  // the loader skips it and searches on
      d.searched.push_back({candidate, source, "skipped: " + mismatch});
      return -1;
    }
    std::string error;
    int idx = add(name, candidate, req, g.objects[req].preloaded, &error);
    if (idx < 0) {
      d.searched.push_back({candidate, source, "unreadable: " + error});
      d.error = error;
      return -1;
    }
    d.searched.push_back({candidate, source, "found"});
    d.via = source;
    return idx;
  }

  int search_list(const std::vector<std::string_view>& dirs, int owner, const std::string& source, int req,
                  const std::string& name, Dependency& d) {
    std::string origin = origin_of(owner);
    for (auto dir : dirs) {
      int idx = try_dir(expand_dst(std::string(dir), origin, cfg_), name, source, req, d);
      if (idx >= 0) return idx;
    }
    return -1;
  }

  int resolve(int req, Dependency& d) {
    const std::string& name = d.name;
    if (int idx = already_loaded(name); idx >= 0) {
      d.via = g.objects[idx].preloaded && !g.objects[req].preloaded ? "preloaded" : "already loaded";
      return idx;
    }
    const platform::ElfObject& r = *g.objects[req].elf;
    if (name.find('/') != std::string::npos) {
      std::string path = expand_dst(name, origin_of(req), cfg_);
      if (!is_file(path)) {
        d.searched.push_back({path, "path in DT_NEEDED", "absent"});
        d.error = "no such file";
        return -1;
      }
      std::string error;
      int idx = add(name, path, req, g.objects[req].preloaded, &error);
      if (idx < 0) d.error = error;
      else d.via = "path in DT_NEEDED";
      return idx;
    }
    // 1. DT_RPATH of the requester and of each object that (transitively) loaded it, but only when the
    //    requester has no DT_RUNPATH; an object with a RUNPATH contributes no RPATH.
    if (!r.has_runpath()) {
      for (int l = req; l >= 0; l = g.objects[l].loader) {
        const platform::ElfObject& lo = *g.objects[l].elf;
        if (lo.has_runpath() || !lo.has_rpath()) continue;
        int idx = search_list(lo.rpath(), l, "RPATH of " + g.objects[l].path, req, name, d);
        if (idx >= 0) return idx;
      }
    }
    // 2. LD_LIBRARY_PATH ($ORIGIN there means the main program's directory; we use the requester's).
    {
      std::vector<std::string_view> dirs(cfg_.ld_library_path.begin(), cfg_.ld_library_path.end());
      int idx = search_list(dirs, req, "LD_LIBRARY_PATH", req, name, d);
      if (idx >= 0) return idx;
    }
    // 3. DT_RUNPATH of the requester only (not inherited).
    if (r.has_runpath()) {
      int idx = search_list(r.runpath(), req, "RUNPATH of " + g.objects[req].path, req, name, d);
      if (idx >= 0) return idx;
    }
    if (r.nodeflib()) {
      if (d.error.empty()) d.error = "not found (DF_1_NODEFLIB: ld.so.cache and default directories not searched)";
      return -1;
    }
    // 4. /etc/ld.so.cache
    if (cfg_.cache) {
      if (auto hit = cfg_.cache->lookup(name)) {
        std::string mismatch = is_file(*hit) ? platform::ElfObject::loadable_mismatch(*hit) : "absent";
        if (mismatch.empty()) {
          std::string error;
          int idx = add(name, *hit, req, g.objects[req].preloaded, &error);
          if (idx >= 0) {
            d.searched.push_back({*hit, "ld.so.cache", "found"});
            d.via = "ld.so.cache";
            return idx;
          }
          mismatch = "unreadable: " + error;
        }
        d.searched.push_back({*hit, "ld.so.cache", mismatch});
      } else {
        d.searched.push_back({name, "ld.so.cache", "no entry"});
      }
    }
    // 5. default directories
    for (const auto& dir : cfg_.default_dirs) {
      int idx = try_dir(dir, name, "default directory", req, d);
      if (idx >= 0) return idx;
    }
    if (d.error.empty()) d.error = "cannot open shared object file: No such file or directory";
    return -1;
  }

  const LoaderConfig& cfg_;
  ObjectCache& cache_;
  std::map<std::string, int> by_real_;
};

}  // namespace

LoadGraph build_load_graph(const std::string& root, const std::vector<Preload>& preload, const LoaderConfig& cfg,
                           ObjectCache& cache) {
  GraphBuilder b(cfg, cache);
  for (const auto& p : preload) {
    std::string error;
    int idx = b.add(p.path, absolute(p.path), -1, true, &error);
    if (idx < 0) throw platform::ElfError("preloaded library " + (error.empty() ? p.path : error));
    // Opened again with RTLD_GLOBAL after a local load, an object joins the global scope (glibc promotes it).
    if (p.global) b.g.objects[idx].global = true;
    b.close_over(idx);
  }
  std::string error;
  std::string path = absolute(root);
  int idx = b.add(root, path, -1, false, &error);
  if (idx < 0) throw platform::ElfError(error);
  b.g.root = idx;
  if (b.g.objects[idx].preloaded) return std::move(b.g);  // the root is one of the preloads: nothing new
  b.close_over(idx);
  return std::move(b.g);
}

int dlopen_from(LoadGraph& g, int requester, const std::string& name, const LoaderConfig& cfg, ObjectCache& cache) {
  if (requester < 0 || requester >= static_cast<int>(g.objects.size())) return -1;
  GraphBuilder b(std::move(g), cfg, cache);
  int idx = b.open_from(requester, name);
  g = std::move(b.g);
  return idx;
}

}  // namespace gpucheck::abi
