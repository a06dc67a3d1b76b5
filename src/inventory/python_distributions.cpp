#include "inventory/python_distributions.h"

#include <filesystem>
#include <map>
#include <set>

#include "core/text.h"
#include "platform/dist_info.h"

namespace gpucheck::inventory {

void read_python_distributions(const RootFs& fs, PythonEnv& p) {
  p.distributions.clear();
  p.shared_files.clear();
  // file (normalised guest path) -> owner -> the hash that owner's RECORD gives it
  std::map<std::string, std::map<std::string, std::string>> claims;
  std::set<std::string> seen_sites;
  for (const auto& site : p.site_packages) {
    std::string real = fs.resolve(site);
    if (real.empty() || !seen_sites.insert(real).second) continue;
    for (auto& d : read_distributions(fs, site)) {
      if (ends_with(d.dir, ".dist-info"))
        for (const auto& e : read_record(fs, d.dir)) {
          if (e.hash.empty()) continue;  // RECORD itself, .pyc files: nothing to compare
          std::string path = e.path.front() == '/' ? e.path : path_join(site, e.path);
          claims[std::filesystem::path(path).lexically_normal().string()][d.name] = e.hash;
        }
      p.distributions.push_back({d.name, d.version, std::move(d.requires_dist), d.dir});
    }
  }
  for (const auto& [path, owners] : claims) {
    if (owners.size() < 2) continue;
    std::set<std::string> hashes;
    for (const auto& o : owners) hashes.insert(o.second);
    if (hashes.size() < 2) continue;  // the same bytes whoever wrote them
    SharedFile f;
    f.path = path;
    std::string on_disk = record_hash_of_file(fs, path);
    for (const auto& [owner, hash] : owners) {
      f.owners.push_back(owner);
      if (!on_disk.empty() && hash == on_disk && f.content_of.empty()) f.content_of = owner;
    }
    p.shared_files.push_back(std::move(f));
  }
}

}  // namespace gpucheck::inventory
