#include "runner/catalog.h"

#include <algorithm>
#include <filesystem>

#include "core/errors.h"
#include "core/files.h"
#include "core/text.h"

namespace gpucheck::runner {

const std::vector<std::string> kLevels = {"quick", "standard", "long"};

namespace {

// The configure-time rule (cmake/GpucheckProbeManifest.cmake): dot-separated words of [a-z0-9_], at least
// two. Checked again here because the id becomes the executable's file name: "../../bin/sh" must not run.
bool is_probe_id(const std::string& id) {
  std::size_t words = 0, length = 0;
  for (char c : id + ".") {
    if (c == '.') {
      if (length == 0) return false;
      ++words, length = 0;
    } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_') {
      ++length;
    } else {
      return false;
    }
  }
  return words >= 2;
}

ProbeSpec parse_manifest(const nlohmann::json& j, const std::string& file, const std::string& probe_dir) {
  try {
    ProbeSpec p;
    p.id = j.at("id").get<std::string>();
    if (!is_probe_id(p.id))
      throw InputError("id '" + on_one_line(terminal_safe(p.id)) + "' is not a probe id (words of a-z, 0-9 and _ joined by dots)");
    p.title = j.at("title").get<std::string>();
    p.description = j.value("description", "");
    p.levels = j.at("levels").get<std::vector<std::string>>();
    p.timeout_s = j.value("timeout_s", 60.0);
    p.timeout_by_level = j.value("timeout_s_by_level", std::map<std::string, double>{});
    p.timeout_cores = static_cast<int>(json_int(j, "timeout_cores", 0, 0, 4096));
    for (const auto& [level, t] : p.timeout_by_level)
      if (!(t > 0) || t > kMaxTimeoutSeconds || std::find(kLevels.begin(), kLevels.end(), level) == kLevels.end())
        throw InputError("timeout_s_by_level: '" + level + "' must be a level with seconds in (0, " +
                         std::to_string(static_cast<int>(kMaxTimeoutSeconds)) + "]");
    if (p.timeout_cores < 0 || p.timeout_cores > 4096) throw InputError("timeout_cores must be in [0, 4096]");
    p.level_args = j.value("level_args", std::map<std::string, std::vector<std::string>>{});
    p.tags = j.value("tags", std::vector<std::string>{});
    for (auto& l : p.levels)
      if (std::find(kLevels.begin(), kLevels.end(), l) == kLevels.end())
        throw InputError("unknown level '" + l + "'");
    if (!(p.timeout_s > 0) || p.timeout_s > kMaxTimeoutSeconds)
      throw InputError("timeout_s must be a number of seconds in (0, " + std::to_string(static_cast<int>(kMaxTimeoutSeconds)) + "]");
    p.executable = probe_dir + "/" + p.id;
    return p;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(on_one_line(terminal_safe("probe manifest " + file + ": " + e.what())));
  } catch (const InputError& e) {
    throw InputError(on_one_line(terminal_safe("probe manifest " + file + ": " + e.what())));
  }
}

}  // namespace

double effective_timeout(const ProbeSpec& spec, const std::string& level, unsigned cores) {
  auto it = spec.timeout_by_level.find(level);
  double t = it == spec.timeout_by_level.end() ? spec.timeout_s : it->second;
  if (spec.timeout_cores > 0 && cores > 0 && cores < static_cast<unsigned>(spec.timeout_cores))
    t *= std::min(8.0, static_cast<double>(spec.timeout_cores) / cores);
  return std::min(t, kMaxTimeoutSeconds);
}

std::vector<ProbeSpec> load_catalog(const std::string& manifest_dir, const std::string& probe_dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(manifest_dir, ec))
    throw InputError("no probe manifests in " + manifest_dir + " (is gpucheck installed or built completely?)");
  std::vector<ProbeSpec> out;
  for (auto& entry : fs::directory_iterator(manifest_dir, ec)) {
    if (entry.path().extension() != ".json") continue;
    out.push_back(parse_manifest(read_json_file(entry.path().string()), entry.path().string(), probe_dir));
  }
  std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.id < b.id; });
  return out;
}

namespace {

std::vector<ProbeSpec> select_without_skips(const std::vector<ProbeSpec>& catalog, const std::string& level,
                                            const std::vector<std::string>& only) {
  std::vector<ProbeSpec> out;
  if (!only.empty()) {
    std::vector<std::string> ids;
    for (auto& p : catalog) ids.push_back(p.id);
    for (auto& want : only) {
      if (want.empty()) throw InputError("--only: an empty probe id (ids are comma-separated: a.b,c.d)");
      // --only a,a runs a once: a probe is one measurement of this machine, not a repetition count.
      if (std::any_of(out.begin(), out.end(), [&](auto& p) { return p.id == want; })) continue;
      auto it = std::find_if(catalog.begin(), catalog.end(), [&](auto& p) { return p.id == want; });
      if (it == catalog.end()) {
        std::string hint = closest_match(want, ids);
        throw InputError("unknown probe '" + want + "'" + (hint.empty() ? "" : ", did you mean '" + hint + "'?") +
                         " (gpucheck list shows them)");
      }
      out.push_back(*it);
    }
    return out;
  }
  for (auto& p : catalog)
    if (std::find(p.levels.begin(), p.levels.end(), level) != p.levels.end()) out.push_back(p);
  return out;
}

}  // namespace

std::vector<ProbeSpec> select_probes(const std::vector<ProbeSpec>& catalog, const std::string& level,
                                     const std::vector<std::string>& only, const std::vector<std::string>& skip) {
  if (std::find(kLevels.begin(), kLevels.end(), level) == kLevels.end())
    throw InputError("unknown level '" + level + "' (quick, standard or long)");
  std::vector<ProbeSpec> out = select_without_skips(catalog, level, only);
  std::vector<std::string> ids;
  for (auto& p : catalog) ids.push_back(p.id);
  for (auto& id : skip) {
    if (id.empty()) throw InputError("--skip: an empty probe id (ids are comma-separated: a.b,c.d)");
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) {
      std::string hint = closest_match(id, ids);
      throw InputError("--skip: unknown probe '" + id + "'" + (hint.empty() ? "" : ", did you mean '" + hint + "'?") +
                       " (gpucheck list shows them)");
    }
    out.erase(std::remove_if(out.begin(), out.end(), [&](const ProbeSpec& p) { return p.id == id; }), out.end());
  }
  return out;
}

}  // namespace gpucheck::runner
