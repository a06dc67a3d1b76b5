#include "inventory/library_scan.h"

#include <algorithm>
#include <future>
#include <map>
#include <set>

#include "core/text.h"
#include "platform/dist_info.h"
#include "platform/elf_object.h"
#include "inventory/library_version.h"
#include "inventory/trace.h"
#include "inventory/version_cache.h"
#include "platform/environment.h"

namespace gpucheck::inventory {

namespace {

// File name prefix -> kind, longest first so libcublasLt is not taken for libcublas.
const std::vector<std::pair<std::string, std::string>> kKinds = {
    {"libcublasLt.so", "cublasLt"}, {"libcublas.so", "cublas"}, {"libcudart.so", "cudart"},
    {"libcudnn.so", "cudnn"},       {"libnccl.so", "nccl"},     {"libnvrtc.so", "nvrtc"},
    {"libnvJitLink.so", "nvjitlink"}};

// The dist-info package prefix that ships each kind (pip wheels and wheel-assembled toolkits).
const std::map<std::string, std::string> kPackagePrefix = {
    {"cudart", "nvidia-cuda-runtime"}, {"cublas", "nvidia-cublas"}, {"cublasLt", "nvidia-cublas"},
    {"cudnn", "nvidia-cudnn"},         {"nccl", "nvidia-nccl"},     {"nvrtc", "nvidia-cuda-nvrtc"},
    {"nvjitlink", "nvidia-nvjitlink"}};

// glibc's trusted directories on Debian/Ubuntu multiarch and on RPM distributions.
const std::vector<std::string> kDefaultDirs = {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64",
                                               "/usr/lib64", "/lib", "/usr/lib"};

void add_via(std::vector<std::string>& v, const std::string& via) {
  if (std::find(v.begin(), v.end(), via) == v.end()) v.push_back(via);
}

struct Found {
  std::string path;  // as found (may be a link)
  std::string via;
  std::string dist_dir;  // where the dist-info of its package lives
};

}  // namespace

std::string library_kind(const std::string& file_name) {
  for (const auto& [prefix, kind] : kKinds) {
    if (!starts_with(file_name, prefix)) continue;
    std::string rest = file_name.substr(prefix.size());
    if (rest.empty() || rest[0] == '.') return kind;
  }
  return "";
}

std::string version_from_file_name(const std::string& file_name) {
  auto so = file_name.find(".so.");
  if (so == std::string::npos) return "";
  std::string v = file_name.substr(so + 4);
  for (char c : v)
    if (!std::isdigit(static_cast<unsigned char>(c)) && c != '.') return "";
  return v;
}

std::vector<Library> scan_libraries(const platform::RootFs& fs, const LibraryScanInput& in) {
  std::vector<Found> found;
  auto scan_dir = [&](const std::string& dir, const std::string& via, const std::string& dist_dir) {
    for (const auto& name : fs.list(dir))
      if (!library_kind(name).empty()) found.push_back({path_join(dir, name), via, dist_dir});
  };
  for (const auto& tk : in.toolkits)
    for (const char* sub : {"lib64", "lib", "targets/x86_64-linux/lib"})
      scan_dir(path_join(tk.root, sub), "toolkit:" + tk.root, path_join(tk.root, "dist-info"));
  for (const auto& dir : split(platform::env_value(in.env, "LD_LIBRARY_PATH"), ':'))
    if (!dir.empty() && dir.front() == '/') scan_dir(dir, "LD_LIBRARY_PATH", "");
  if (in.ld_cache)
    for (const auto& e : in.ld_cache->entries())
      if (platform::is_host_entry(e) && !library_kind(base_name(e.path)).empty()) found.push_back({e.path, "ld.so.cache", ""});
  for (const auto& sp : in.site_packages) {
    for (const auto& sub : fs.list(path_join(sp, "nvidia")))
      scan_dir(path_join(sp, "nvidia/" + sub + "/lib"), "pip", sp);
    scan_dir(path_join(sp, "torch/lib"), "torch/lib", sp);
  }

  trace("libraries: " + std::to_string(found.size()) + " candidate files listed");
  // One entry per real file; links and every route that led to it are kept.
  std::vector<Library> libs;
  std::map<std::string, std::size_t> by_real;
  std::map<std::string, std::map<std::string, std::string>> dist_cache;
  for (const auto& f : found) {
    std::string real = fs.resolve(f.path);
    if (real.empty() || !fs.is_file(real)) continue;
    auto it = by_real.find(real);
    if (it == by_real.end()) {
      Library lib;
      lib.name = library_kind(base_name(real));
      if (lib.name.empty()) lib.name = library_kind(base_name(f.path));
      lib.path = real;
      lib.soname = platform::ElfObject::read_soname(fs.host(real));
      it = by_real.emplace(real, libs.size()).first;
      libs.push_back(lib);
    }
    Library& lib = libs[it->second];
    std::string via = f.via;
    if (!f.dist_dir.empty() && lib.package.empty()) {
      auto& pkgs = dist_cache.try_emplace(f.dist_dir, platform::read_dist_infos(fs, f.dist_dir)).first->second;
      for (const auto& [name, version] : pkgs)
        if (starts_with(name, kPackagePrefix.at(lib.name))) lib.package = name, lib.package_version = version;
    }
    if (via == "pip") via = "pip:" + (lib.package.empty() ? std::string("nvidia") : lib.package);
    add_via(lib.found_via, via);
    // Links are the symlink files themselves (libcudart.so -> libcudart.so.12), named through their real
    // directory: lib64 -> lib style directory links would only repeat every file.
    if (f.path != real && fs.is_symlink(f.path)) {
      std::string dir = fs.resolve(parent_dir(f.path));
      add_via(lib.links, path_join(dir.empty() ? parent_dir(f.path) : dir, base_name(f.path)));
    }
  }

  // Which file a plain dlopen(soname) would get: LD_LIBRARY_PATH, then ld.so.cache, then trusted dirs.
  std::set<std::string> sonames;
  for (const auto& l : libs)
    if (!l.soname.empty()) sonames.insert(l.soname);
  for (const auto& soname : sonames) {
    std::string pick;
    for (const auto& dir : split(platform::env_value(in.env, "LD_LIBRARY_PATH"), ':'))
      if (pick.empty() && !dir.empty() && fs.is_file(path_join(dir, soname))) pick = path_join(dir, soname);
    if (pick.empty() && in.ld_cache) pick = in.ld_cache->lookup(soname).value_or("");
    for (const auto& dir : kDefaultDirs)
      if (pick.empty() && fs.is_file(path_join(dir, soname))) pick = path_join(dir, soname);
    std::string real = fs.resolve(pick);
    for (auto& l : libs)
      if (!real.empty() && l.path == real && l.soname == soname) l.loader_pick = true;
  }

  // Versions: the library's own function in a child, one child per directory, directories in parallel.
  std::map<std::string, VersionReading> readings;
  if (in.read_versions && fs.live()) {
    VersionCache cache(in.version_cache);
    std::map<std::string, std::vector<VersionRequest>> by_dir;
    std::vector<std::string> prefetched;
    for (const auto& l : libs) {
      if (auto loaded = in.loaded_versions.find(l.path); loaded != in.loaded_versions.end()) {
        auto fn = version_functions().find(l.name);
        VersionReading r{loaded->second,
                         (fn == version_functions().end() ? l.name : fn->second) + " in the Python child after import torch", ""};
        readings[l.path] = r;
        cache.store(l.path, r);
        continue;
      }
      VersionReading cached;
      if (cache.lookup(l.path, cached)) {
        cached.source += " (cached)";
        readings[l.path] = cached;
        continue;
      }
      if (in.prefetch && in.prefetch->covers(l.path)) {
        prefetched.push_back(l.path);
        continue;
      }
      bool native = platform::ElfObject::loadable_mismatch(l.path).empty();  // else dlopen in the child would refuse it
      // cuBLAS costs most of the time (relocating libcublasLt): give it its own child so the rest overlaps.
      std::string group = parent_dir(l.path) + (starts_with(l.name, "cublas") ? "#cublas" : "");
      if (native) by_dir[group].push_back({l.name, l.path});
    }
    std::vector<std::future<std::map<std::string, VersionReading>>> jobs;
    for (auto& [dir, reqs] : by_dir)
      jobs.push_back(std::async(std::launch::async, [r = reqs, dir = dir] {
        trace("version child start " + dir);
        auto out = read_versions_in_child(r);
        trace("version child done " + dir);
        return out;
      }));
    for (auto& j : jobs)
      for (auto& [path, reading] : j.get()) {
        readings[path] = reading;
        cache.store(path, reading);
      }
    for (const auto& path : prefetched)
      if (auto reading = in.prefetch->take(path)) {
        readings[path] = *reading;
        cache.store(path, *reading);
      }
    cache.save();
  }
  trace("libraries: versions read");
  for (auto& l : libs) {
    auto it = readings.find(l.path);
    if (it != readings.end() && !it->second.version.empty()) {
      l.version = it->second.version;
      l.version_source = it->second.source;
      continue;
    }
    if (it != readings.end()) l.version_error = it->second.error;
    // A real file name like libcudart.so.12.1.105 is precise; one that only repeats the SONAME's number
    // (libcudart.so.12, libcudart.so.11.0) is not: the wheel's dist-info is better then.
    std::string fv = version_from_file_name(base_name(l.path));
    std::string sv = version_from_file_name(l.soname);
    bool file_is_precise = l.soname.empty() ? std::count(fv.begin(), fv.end(), '.') >= 2
                                            : !fv.empty() && fv != sv && starts_with(fv, sv);
    if (file_is_precise) {
      l.version = fv, l.version_source = "file name";
    } else if (!l.package_version.empty()) {
      l.version = l.package_version, l.version_source = "dist-info " + l.package;
    } else if (!sv.empty()) {
      l.version = sv, l.version_source = "SONAME";
    } else if (!fv.empty()) {
      l.version = fv, l.version_source = "file name";
    }
  }
  std::sort(libs.begin(), libs.end(), [](const Library& a, const Library& b) {
    return a.name != b.name ? a.name < b.name : a.path < b.path;
  });
  return libs;
}

}  // namespace gpucheck::inventory
