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
  // file (normalised guest path) -> owner -> the hash and size that owner's RECORD gives it
  std::map<std::string, std::map<std::string, std::pair<std::string, long long>>> claims;
  std::set<std::string> seen_sites;
  for (const auto& site : p.site_packages) {
    std::string real = fs.resolve(site);
    if (real.empty() || !seen_sites.insert(real).second) continue;
    for (auto& d : read_distributions(fs, site)) {
      if (ends_with(d.dir, ".dist-info"))
        for (const auto& e : read_record(fs, d.dir)) {
          if (e.hash.empty()) continue;  // RECORD itself, .pyc files: nothing to compare
          std::string path = e.path.front() == '/' ? e.path : path_join(site, e.path);
          claims[std::filesystem::path(path).lexically_normal().string()][d.name] = {e.hash, e.size};
        }
      p.distributions.push_back({d.name, d.version, std::move(d.requires_dist), d.dir});
    }
  }
  for (const auto& [path, owners] : claims) {
    if (owners.size() < 2) continue;
    std::set<std::string> hashes;
    for (const auto& o : owners) hashes.insert(o.second.first);
    if (hashes.size() < 2) continue;  // the same bytes whoever wrote them
    SharedFile f;
    f.path = path;
    for (const auto& o : owners) f.owners.push_back(o.first);
    // Only owners whose RECORD size is the size on disk can own the bytes; the hash decides among them
    // (a file of the right size with other bytes is nobody's). Files no owner's size fits are not read.
    std::error_code ec;
    auto on_disk = std::filesystem::file_size(fs.host(path), ec);
    std::vector<std::string> by_size;
    for (const auto& [owner, rec] : owners)
      if (!ec && (rec.second < 0 || static_cast<unsigned long long>(rec.second) == on_disk)) by_size.push_back(owner);
    if (!by_size.empty()) {
      std::string digest = record_hash_of_file(fs, path);
      for (const auto& owner : by_size)
        if (!digest.empty() && owners.at(owner).first == digest && f.content_of.empty())
          f.content_of = owner, f.matched_by = "sha256";
    }
    p.shared_files.push_back(std::move(f));
  }
}

}  // namespace gpucheck::inventory
