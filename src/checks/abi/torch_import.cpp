#include "checks/abi/torch_import.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fnmatch.h>


#include "core/errors.h"
#include "core/files.h"
#include "core/text.h"
#include "knowledge/text_pattern.h"
#include "checks/abi/targets.h"

namespace gpucheck::abi {
namespace fs = std::filesystem;

namespace {

bool exists_file(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// torch's Python sources are read as text, never run; a missing or unreadable file reads as "".
std::string text_of(const std::string& path) {
  try {
    return read_file(path, std::size_t{8} << 20);
  } catch (const std::exception&) {
    return "";
  }
}

// `NAME = True` / `NAME = False` at the start of a line of torch/_utils_internal.py; `fallback` when absent.
bool flag_in(const std::string& text, const std::string& name, bool fallback) {
  const knowledge::TextPattern re("(^|\\n)" + name + "[[:space:]]*(:[[:space:]]*bool[[:space:]]*)?=[[:space:]]*(True|False)");
  auto m = re.search(text);
  if (!m) return fallback;
  return m->str(3) == "True";
}

std::string extension_c(const std::string& torch_dir) {
  std::vector<std::string> found;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(torch_dir, ec)) {
    std::string n = e.path().filename().string();
    if (n.rfind("_C.", 0) == 0 && n.size() > 3 && n.compare(n.size() - 3, 3, ".so") == 0) found.push_back(e.path().string());
  }
  std::sort(found.begin(), found.end());
  return found.empty() ? "" : found.front();
}

// The (folder, glob) pairs of torch's _preload_cuda_deps (2.x: a list of tuples; 1.13-2.1: a dict), in order.
std::vector<std::pair<std::string, std::string>> preload_list(const std::string& init) {
  std::vector<std::pair<std::string, std::string>> out;
  auto begin = init.find("cuda_libs");
  if (begin == std::string::npos) return out;
  auto end = init.find("_preload_cuda_", init.find('\n', begin));
  std::string block = init.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
  static const knowledge::TextPattern pair_re(
      R"([(]?[[:space:]]*["'](\w+)["'][[:space:]]*[,:][[:space:]]*["'](lib[^"']+)["'])");
  for (const auto& m : pair_re.search_all(block)) out.push_back({m.str(1), m.str(2)});
  // The optional libnvToolsExt preload that follows the list.
  if (init.find("_preload_cuda_lib(\"nvtx\"") != std::string::npos) out.push_back({"nvtx", "libnvToolsExt.so.*[0-9]"});
  return out;
}

// The first file matching `glob` in site/nvidia/<folder>/lib, then site/nvidia/cu<major>/lib (torch >= 2.9
// for CUDA 13), as torch's _get_cuda_dep_paths looks.
std::string find_preload(const std::string& site, const std::string& folder, const std::string& glob,
                         const std::string& cuda_major) {
  std::vector<std::string> dirs{site + "/nvidia/" + folder + "/lib"};
  if (!cuda_major.empty()) dirs.push_back(site + "/nvidia/cu" + cuda_major + "/lib");
  for (const auto& d : dirs) {
    std::vector<std::string> hits;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(d, ec))
      if (fnmatch(glob.c_str(), e.path().filename().c_str(), 0) == 0) hits.push_back(e.path().string());
    std::sort(hits.begin(), hits.end());
    if (!hits.empty()) return hits.front();
  }
  return "";
}

// torch.version.cuda's major, read from torch/version.py ("" for a CPU build).
std::string cuda_major_of(const std::string& torch_dir) {
  std::string v = text_of(torch_dir + "/version.py");
  static const knowledge::TextPattern re(R"((^|\n)cuda[^=\n]*=[[:space:]]*['"](\d+)\.)");
  auto m = re.search(v);
  return m ? m->str(2) : "";
}


// The first DT_NEEDED of `lib`'s closure the loader cannot find ("" when everything loads): what dlopen's
// error names, and what torch's fallback tests against its list of CUDA libraries.
std::string first_unloadable(const std::string& lib, const LoaderConfig* cfg) {
  static const platform::LdCache cache = platform::LdCache::load();
  static const LoaderConfig host = LoaderConfig::for_this_host(&cache);
  ObjectCache objects;
  try {
    LoadGraph g = build_load_graph(lib, {}, cfg ? *cfg : host, objects);
    for (const auto& d : g.deps)
      if (d.object < 0) return d.name;
  } catch (const std::exception&) {
  }
  return "";
}

// torch's `is_cuda_lib_err`: the error text holds the stem ("libcublas") of one of its list's globs.
bool names_cuda_lib(const std::string& init, const std::string& failing) {
  for (const auto& [folder, glob] : preload_list(init))
    if (failing.find(glob.substr(0, glob.find('.'))) != std::string::npos) return true;
  return false;
}

// The other of purelib/platlib (<prefix>/lib64/pythonX.Y/site-packages <-> lib/...): where a distro's pip
// puts the nvidia-* wheels (purelib) when torch lands in platlib, the case torch's fallback exists for.
std::string platlib_twin(const std::string& site) {
  for (const auto& [a, b] : {std::pair<std::string, std::string>{"/lib64/", "/lib/"}, {"/lib/", "/lib64/"}}) {
    auto p = site.rfind(a);
    if (p == std::string::npos) continue;
    std::string twin = site.substr(0, p) + b + site.substr(p + a.size());
    std::error_code ec;
    return fs::is_directory(twin, ec) ? twin : "";
  }
  return "";
}

}  // namespace

bool torch_rtld_global_from_env() {
  const char* v = std::getenv("TORCH_USE_RTLD_GLOBAL");
  return v && *v;
}

TorchImport torch_import(const std::string& torch_dir, bool env_rtld_global, const LoaderConfig* cfg) {
  TorchImport t;
  t.torch_dir = torch_dir;
  const std::string init = text_of(torch_dir + "/__init__.py");
  const std::string utils = text_of(torch_dir + "/_utils_internal.py");
  const std::string c = extension_c(torch_dir);
  const std::string deps = torch_dir + "/lib/libtorch_global_deps.so";
  if (c.empty() && !exists_file(deps)) {
    // Not an importable torch (a partial install, a test's stand-in): its lib/ libraries as loaded
    // RTLD_LOCAL, the most an extension could count on. torch_preload throws when there are none.
    for (const auto& p : torch_preload(torch_dir + "/lib")) t.loads.push_back({p, false});
    t.how = "no torch/_C*.so in " + torch_dir + ": its lib/ libraries taken as loaded RTLD_LOCAL";
    return t;
  }

  bool honours_env = init.find("TORCH_USE_RTLD_GLOBAL") != std::string::npos;
  bool always_global = flag_in(utils, "USE_RTLD_GLOBAL_WITH_LIBTORCH", false);
  bool use_global_deps = flag_in(utils, "USE_GLOBAL_DEPS", true);
  bool has_global_deps = init.find("libtorch_global_deps") != std::string::npos && exists_file(deps);
  if (always_global || (env_rtld_global && honours_env)) {
    t.rtld_global = true;
    t.how = always_global ? "torch/_utils_internal.py sets USE_RTLD_GLOBAL_WITH_LIBTORCH: _C opened RTLD_GLOBAL"
                          : "TORCH_USE_RTLD_GLOBAL is set: torch opens _C with RTLD_GLOBAL (everything it loads is visible)";
    if (!c.empty()) t.loads.push_back({c, true});
    return t;
  }
  if (has_global_deps && use_global_deps) {
    // torch >= 2.5 then preloads the CUDA wheels' libraries with ctypes' default RTLD_LOCAL whenever
    // cudart got loaded ("Workaround slim-wheel CUDA dependency bugs"); 1.13-2.4 only inside
    // `except OSError:`, when the global deps fail to load for a CUDA library (below).
    auto gd = init.find("def _load_global_deps");
    auto body_end = init.find("\ndef ", gd == std::string::npos ? 0 : gd + 1);
    std::string body = gd == std::string::npos ? "" : init.substr(gd, body_end == std::string::npos ? std::string::npos : body_end - gd);
    auto call = body.find("_preload_cuda_deps(");
    auto except = body.find("except OSError");
    bool needs_cudart = false;
    try {
      auto elf = platform::ElfObject::open(deps);  // kept alive: needed() views its string table
      for (auto n : elf->needed()) needs_cudart = needs_cudart || n.rfind("libcudart.so", 0) == 0;
    } catch (const platform::ElfError&) {
    }
    const std::string site = fs::path(torch_dir).parent_path().string();
    const std::string major = cuda_major_of(torch_dir);
    if (needs_cudart && call != std::string::npos && except != std::string::npos && except < call) {
      std::string failing = first_unloadable(deps, cfg);
      t.loads.push_back({deps, true});
      t.how = "torch/__init__.py: libtorch_global_deps.so opened RTLD_GLOBAL, then _C RTLD_LOCAL";
      if (!failing.empty() && names_cuda_lib(init, failing)) {
        // The fallback: every library of the list preloaded RTLD_LOCAL (ctypes.CDLL's default) from
        // <sys.path entry>/nvidia/<folder>/lib, then the global deps again, RTLD_GLOBAL.
        t.loads.clear();
        std::vector<std::string> sites{site};
        if (std::string twin = platlib_twin(site); !twin.empty()) sites.push_back(twin);
        std::string absent;
        for (const auto& [folder, glob] : preload_list(init)) {
          std::string p;
          for (const auto& sp : sites)
            if (p = find_preload(sp, folder, glob, ""); !p.empty()) break;
          if (p.empty()) {
            absent = glob;
            break;
          }
          t.loads.push_back({p, false});
        }
        if (!absent.empty()) {
          t.import_fails = true;
          t.how = "torch/__init__.py: libtorch_global_deps.so does not load (" + failing + " not found), and its "
                  "fallback finds no " + absent + " under " + join(sites, " or ") + "/nvidia: import torch raises ValueError";
          return t;
        }
        t.loads.push_back({deps, true});
        t.how = "torch/__init__.py: libtorch_global_deps.so does not load (" + failing + " not found): " +
                std::to_string(t.loads.size() - 1) + " CUDA wheel libraries preloaded RTLD_LOCAL from " +
                join(sites, " / ") + ", then libtorch_global_deps.so RTLD_GLOBAL, then _C RTLD_LOCAL";
      }
    } else {
      t.loads.push_back({deps, true});
      t.how = "torch/__init__.py: libtorch_global_deps.so opened RTLD_GLOBAL, then _C RTLD_LOCAL";
      if (needs_cudart && call != std::string::npos && (except == std::string::npos || call < except)) {
        int n = 0;
        for (const auto& [folder, glob] : preload_list(init))
          if (std::string p = find_preload(site, folder, glob, major); !p.empty()) {
            t.loads.push_back({p, false});
            ++n;
          }
        t.how = "torch/__init__.py: libtorch_global_deps.so opened RTLD_GLOBAL, " + std::to_string(n) +
                " CUDA wheel libraries preloaded RTLD_LOCAL, then _C RTLD_LOCAL";
      }
    }
  } else {
    t.how = "torch/__init__.py loads no global deps here: _C opened RTLD_LOCAL";
  }
  if (env_rtld_global && !honours_env) t.how += " (this torch ignores TORCH_USE_RTLD_GLOBAL)";
  if (!c.empty()) t.loads.push_back({c, false});
  return t;
}

std::string enclosing_site_packages(const std::string& target) {
  std::error_code ec;
  fs::path p = fs::absolute(target, ec);
  if (ec) return "";
  for (fs::path d = p.parent_path(); !d.empty() && d != d.root_path(); d = d.parent_path()) {
    std::string n = d.filename().string();
    if (n == "site-packages" || n == "dist-packages") return d.string();
  }
  return "";
}

std::string site_torch_dir(const std::string& site_packages) {
  if (site_packages.empty()) return "";
  std::string dir = site_packages + "/torch";
  return exists_file(dir + "/__init__.py") ? dir : "";
}

std::string site_python(const std::string& site_packages) {
  fs::path sp(site_packages);
  fs::path libpy = sp.parent_path();  // lib/python3.11
  std::string ver = libpy.filename().string();
  if (ver.rfind("python", 0) != 0) return "";
  fs::path prefix = libpy.parent_path().parent_path();
  for (const std::string& n : {ver, std::string("python3"), std::string("python")}) {
    std::string p = (prefix / "bin" / n).string();
    if (exists_file(p)) return p;
  }
  return "";
}

bool links_torch(const platform::ElfObject& o) {
  for (auto n : o.needed())
    if (n.rfind("libc10", 0) == 0 || n.rfind("libtorch", 0) == 0) return true;
  return false;
}

}  // namespace gpucheck::abi
