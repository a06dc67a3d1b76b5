#pragma once
// NCCL bugs recognised by the pattern of wrong cases they leave (data/collectives/known_bugs.json): when
// every wrong case of a run fits one, and the loaded NCCL is older than its fix, the probe's failure names
// it and the release that fixes it, instead of sending the user to bisect nodes and links.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace gpucheck::collectives {

struct KnownBug {
  std::string id, title, why, fixed_in;
  std::vector<std::string> sources;
};

/// The bug of `catalog` (known_bugs.json's document) that explains every wrong row of `rows` (the probe's
/// details.rows) for a job of `world` ranks on NCCL `nccl_version` ("2.28.9"), if exactly one does.
std::optional<KnownBug> match_known_bug(const nlohmann::json& catalog, const nlohmann::json& rows, int world,
                                        const std::string& nccl_version);

/// "a.b.c" < "x.y.z" numerically; false when either is not a dotted version.
bool nccl_version_below(const std::string& version, const std::string& bound);

}  // namespace gpucheck::collectives
