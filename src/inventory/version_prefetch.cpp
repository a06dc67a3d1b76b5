#include "inventory/version_prefetch.h"

#include <set>

#include "core/text.h"
#include "platform/elf_object.h"
#include "platform/environment.h"
#include "inventory/library_scan.h"
#include "inventory/trace.h"
#include "inventory/version_cache.h"

namespace gpucheck::inventory {

namespace {

bool is_cublas(const std::string& file_name) {
  std::string kind = library_kind(file_name);
  return kind == "cublas" || kind == "cublasLt";
}


}  // namespace

void VersionPrefetch::start(const platform::RootFs& fs, const EnvMap& env, const std::string& cache_file,
                            const platform::LdCache& ld_cache) {
  if (!fs.live()) return;
  std::vector<std::string> dirs;
  std::vector<std::string> roots = {platform::env_value(env, "CUDA_HOME"), platform::env_value(env, "CUDA_PATH"),
                                    "/usr/local/cuda"};
  for (const auto& root : roots)
    if (!root.empty())
      for (const char* sub : {"lib64", "lib", "targets/x86_64-linux/lib"}) dirs.push_back(path_join(root, sub));
  for (const auto& d : split(platform::env_value(env, "LD_LIBRARY_PATH"), ':'))
    if (!d.empty() && d.front() == '/') dirs.push_back(d);

  // The real directories with cuBLAS in them; then every cuBLAS file there, as the library scan groups
  // them (one child per directory: libcublas loads the libcublasLt beside it anyway).
  std::set<std::string> real_dirs;
  for (const auto& d : dirs)
    for (const auto& name : fs.list(d))
      if (is_cublas(name)) real_dirs.insert(parent_dir(fs.resolve(path_join(d, name))));
  for (const auto& e : ld_cache.entries())
    if (platform::is_host_entry(e) && is_cublas(base_name(e.path))) real_dirs.insert(parent_dir(fs.resolve(e.path)));
  std::set<std::string> files;
  for (const auto& d : real_dirs)
    for (const auto& name : fs.list(d))
      if (is_cublas(name)) files.insert(fs.resolve(path_join(d, name)));

  VersionCache cache(cache_file);
  std::map<std::string, std::vector<VersionRequest>> by_dir;
  for (const auto& real : files) {
    VersionReading cached;
    if (real.empty() || !fs.is_file(real) || cache.lookup(real, cached) ||
        !platform::ElfObject::loadable_mismatch(real).empty())
      continue;
    std::string kind = library_kind(base_name(real));
    if (kind.empty()) continue;
    by_dir[parent_dir(real)].push_back({kind, real});
  }
  for (auto& [dir, reqs] : by_dir) {
    trace("prefetch: cuBLAS version child start " + dir);
    std::shared_future<std::map<std::string, VersionReading>> job =
        std::async(std::launch::async, [reqs = reqs, dir = dir] {
          auto out = read_versions_in_child(reqs);
          trace("prefetch: cuBLAS version child done " + dir);
          return out;
        }).share();
    for (const auto& r : reqs) by_path_[r.path] = job;
  }
}

std::optional<VersionReading> VersionPrefetch::take(const std::string& path) const {
  auto it = by_path_.find(path);
  if (it == by_path_.end()) return std::nullopt;
  const auto& readings = it->second.get();
  auto r = readings.find(path);
  if (r == readings.end()) return std::nullopt;
  return r->second;
}

std::vector<std::string> VersionPrefetch::paths() const {
  std::vector<std::string> out;
  for (const auto& [p, job] : by_path_) out.push_back(p);
  return out;
}

}  // namespace gpucheck::inventory
