#include "collectives/known_bugs.h"

#include <cstdlib>
#include <vector>

namespace gpucheck::collectives {
namespace {

std::optional<std::vector<long>> dotted(const std::string& v) {
  std::vector<long> parts;
  std::size_t i = 0;
  while (i < v.size()) {
    std::size_t j = v.find('.', i);
    std::string p = v.substr(i, j == std::string::npos ? std::string::npos : j - i);
    if (p.empty() || p.size() > 6 || p.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    parts.push_back(std::strtol(p.c_str(), nullptr, 10));
    if (j == std::string::npos) break;
    i = j + 1;
  }
  if (parts.empty()) return std::nullopt;
  return parts;
}

bool fits(const nlohmann::json& match, const nlohmann::json& row, int world) {
  if (match.contains("world") && match["world"] != world) return false;
  for (const char* key : {"op", "redop", "in_place"})
    if (match.contains(key) && (!row.contains(key) || row[key] != match[key])) return false;
  return true;
}

std::string text(const nlohmann::json& j, const char* key) {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

}  // namespace

bool nccl_version_below(const std::string& version, const std::string& bound) {
  auto a = dotted(version), b = dotted(bound);
  return a && b && *a < *b;
}

std::optional<KnownBug> match_known_bug(const nlohmann::json& catalog, const nlohmann::json& rows, int world,
                                        const std::string& nccl_version) {
  if (!catalog.is_object() || !catalog.contains("bugs") || !catalog["bugs"].is_array() || !rows.is_array())
    return std::nullopt;
  std::optional<KnownBug> found;
  for (const auto& bug : catalog["bugs"]) {
    if (!bug.is_object() || !bug.contains("match") || !bug["match"].is_object()) continue;
    if (!nccl_version_below(nccl_version, text(bug, "affected_below"))) continue;
    bool any_wrong = false, all_fit = true;
    for (const auto& row : rows) {
      if (!row.is_object() || !row.contains("wrong") || !row["wrong"].is_number() || row["wrong"].get<double>() <= 0)
        continue;
      any_wrong = true;
      all_fit = all_fit && fits(bug["match"], row, world);
    }
    if (!any_wrong || !all_fit) continue;
    if (found) return std::nullopt;  // two explanations: name neither
    KnownBug k{text(bug, "id"), text(bug, "title"), text(bug, "why"), text(bug, "fixed_in"), {}};
    if (bug.contains("sources") && bug["sources"].is_array())
      for (const auto& s : bug["sources"])
        if (s.is_string()) k.sources.push_back(s.get<std::string>());
    found = std::move(k);
  }
  return found;
}

}  // namespace gpucheck::collectives
