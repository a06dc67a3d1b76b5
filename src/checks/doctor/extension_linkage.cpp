#include "checks/doctor/extension_linkage.h"

#include <filesystem>

#include "checks/abi/audit.h"
#include "core/text.h"
#include "platform/dist_info.h"
#include "platform/root_fs.h"

namespace gpucheck::doctor {
namespace fs = std::filesystem;

std::vector<std::string> record_shared_objects(const inventory::Distribution& dist) {
  std::vector<std::string> out;
  if (!ends_with(dist.location, ".dist-info")) return out;
  const platform::RootFs root("/");
  const fs::path site = fs::path(dist.location).parent_path();
  for (const auto& e : platform::read_record(root, dist.location)) {
    const std::string name = fs::path(e.path).filename().string();
    if (!ends_with(name, ".so") && name.find(".so.") == std::string::npos) continue;
    std::string p = (e.path.front() == '/' ? fs::path(e.path) : site / e.path).lexically_normal().string();
    if (!root.is_file(p)) continue;
    // Another machine's document can name paths that exist here too: only the RECORD's size counts as its file.
    std::error_code ec;
    auto size = fs::file_size(p, ec);
    if (!ec && (e.size < 0 || static_cast<long long>(size) == e.size)) out.push_back(p);
  }
  return out;
}

ExtensionLinkage extension_linkage(const inventory::PythonEnv& py, const inventory::Distribution& dist,
                                   const std::string& ld_library_path, bool torch_rtld_global) {
  ExtensionLinkage out;
  std::vector<std::string> objects = record_shared_objects(dist);
  if (objects.empty()) {
    out.why_not = "no shared object of its RECORD is on this machine";
    return out;
  }
  static const platform::LdCache cache = platform::LdCache::load();
  abi::AuditOptions o;
  o.loader = abi::LoaderConfig::for_this_host(&cache);
  o.loader.ld_library_path.clear();
  for (const auto& d : split(ld_library_path, ':'))
    if (!d.empty()) o.loader.ld_library_path.push_back(d);
  o.site_torch = true;  // the torch of the extension's own site-packages, as `import torch` loads it
  o.torch_rtld_global = torch_rtld_global;
  o.python = py.executable.empty() ? py.interpreter : py.executable;
  abi::Auditor auditor(o);
  for (const auto& path : objects) {
    abi::TargetReport t;
    try {
      t = auditor.audit(path);
    } catch (const std::exception& e) {  // a file that changed or vanished while read: nothing is known
      out.why_not = path + ": " + e.what();
      return out;
    }
    if (!t.error.empty()) continue;  // not an ELF object this loader would map (a stub, another arch)
    if (!t.groups.empty()) out.modules.push_back({path, t.groups, t.host.how});
  }
  out.checked = true;
  return out;
}

}  // namespace gpucheck::doctor
