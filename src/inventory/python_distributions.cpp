#include "inventory/python_distributions.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <unordered_map>

#include "core/text.h"
#include "platform/dist_info.h"

namespace gpucheck::inventory {

namespace {

// Already what lexically_normal() would make of it: no "." or ".." component and no doubled slash (almost
// every RECORD line joined to its site-packages; "../../../bin/x" lines take the slow path).
bool plainly_normal(const std::string& p) {
  if (p.find("//") != std::string::npos) return false;
  for (std::size_t i = p.find('.'); i != std::string::npos; i = p.find('.', i + 1)) {
    if (i != 0 && p[i - 1] != '/') continue;
    std::size_t j = i + 1;
    if (j < p.size() && p[j] == '.') ++j;
    if (j == p.size() || p[j] == '/') return false;
  }
  return true;
}

struct Claim {
  std::size_t owner;  // index into the owners' names
  std::string hash;
  long long size;
};

}  // namespace

void read_python_distributions(const platform::RootFs& fs, PythonEnv& p) {
  p.distributions.clear();
  p.shared_files.clear();
  // file (normalised guest path) -> each owner's claim (the hash and size its RECORD gives). A hash map of
  // small vectors: torch's and the CUDA wheels' RECORDs are ~30,000 lines, and a sorted map of maps per
  // line was 80% of `gpucheck env --python`'s own instructions (issue 21); only files with two owners
  // are sorted below.
  std::unordered_map<std::string, std::vector<Claim>> by_path;
  by_path.reserve(1u << 15);
  std::vector<std::string> owner_names;
  std::unordered_map<std::string, std::size_t> owner_index;
  std::set<std::string> seen_sites;
  // The environments' prefixes (site-packages/../../..: the venv, /usr): a RECORD path outside every one
  // (../../../../etc/shadow, /etc/shadow) is never hashed, else RECORD made gpucheck, as root, confirm a
  // guessed hash of any file on the machine (reliability-3 N13).
  std::vector<std::string> prefixes;
  for (const auto& site : p.site_packages) {
    std::string real = fs.resolve(site);
    if (real.empty() || !seen_sites.insert(real).second) continue;
    prefixes.push_back(std::filesystem::path(path_join(site, "../../..")).lexically_normal().string());
    if (std::string r = fs.resolve(prefixes.back()); !r.empty() && r != prefixes.back()) prefixes.push_back(r);
    for (auto& d : platform::read_distributions(fs, site)) {
      if (ends_with(d.dir, ".dist-info")) {
        auto [it, fresh] = owner_index.emplace(d.name, owner_names.size());
        if (fresh) owner_names.push_back(d.name);
        const std::size_t owner = it->second;
        for (auto& e : platform::read_record(fs, d.dir)) {
          if (e.hash.empty()) continue;  // RECORD itself, .pyc files: nothing to compare
          std::string path = e.path.front() == '/' ? e.path : path_join(site, e.path);
          if (!plainly_normal(path)) path = std::filesystem::path(path).lexically_normal().string();
          auto& claims = by_path[std::move(path)];
          auto same = std::find_if(claims.begin(), claims.end(), [&](const Claim& c) { return c.owner == owner; });
          if (same != claims.end()) *same = {owner, std::move(e.hash), e.size};  // the owner's last line wins
          else claims.push_back({owner, std::move(e.hash), e.size});
        }
      }
      p.distributions.push_back({d.name, d.version, std::move(d.requires_dist), d.dir});
    }
  }
  std::map<std::string, std::map<std::string, std::pair<std::string, long long>>> claims;
  for (auto& [path, cs] : by_path)
    if (cs.size() >= 2) {
      auto& owners = claims[path];
      for (auto& c : cs) owners[owner_names[c.owner]] = {std::move(c.hash), c.size};
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
    // Both the path as written and where its links lead (a link in the venv to /etc/shadow) must be inside.
    auto within = [&](const std::string& candidate) {
      return std::any_of(prefixes.begin(), prefixes.end(), [&](const std::string& prefix) {
        const std::string dir = prefix.empty() || prefix.back() == '/' ? prefix : prefix + "/";
        return candidate.rfind(dir, 0) == 0;
      });
    };
    const bool inside = within(path) && within(fs.resolve(path));
    std::error_code ec;
    auto on_disk = inside ? std::filesystem::file_size(fs.host(path), ec) : 0;  // outside: not even its size
    std::vector<std::string> by_size;
    for (const auto& [owner, rec] : owners)
      if (inside && !ec && (rec.second < 0 || static_cast<unsigned long long>(rec.second) == on_disk))
        by_size.push_back(owner);
    if (!by_size.empty()) {
      std::string digest = platform::record_hash_of_file(fs, path);
      for (const auto& owner : by_size)
        if (!digest.empty() && owners.at(owner).first == digest && f.content_of.empty())
          f.content_of = owner, f.matched_by = "sha256";
    }
    p.shared_files.push_back(std::move(f));
  }
}

}  // namespace gpucheck::inventory
