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

// The families (the part of an id before its first '.': device, kernels, ...), sorted, once each.
std::vector<std::string> families_of(const std::vector<ProbeSpec>& catalog) {
  std::vector<std::string> out;
  for (auto& p : catalog) {
    std::string family = p.id.substr(0, p.id.find('.'));
    if (std::find(out.begin(), out.end(), family) == out.end()) out.push_back(family);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (auto& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

// One --only/--skip word: a probe id, or a family ("device", "device." or "device.*": every device.* probe).
// Anything else is an input error that names the closest id and every family and id there is.
std::vector<const ProbeSpec*> expand(const std::vector<ProbeSpec>& catalog, const std::string& word,
                                     const std::string& option) {
  if (word.empty()) throw InputError(option + ": an empty probe id (ids are comma-separated: a.b,c.d)");
  std::vector<const ProbeSpec*> out;
  for (auto& p : catalog)
    if (p.id == word) return {&p};
  std::string family = word;
  if (family.size() > 2 && family.compare(family.size() - 2, 2, ".*") == 0) family.resize(family.size() - 2);
  if (!family.empty() && family.back() == '.') family.pop_back();
  if (!family.empty() && family.find('.') == std::string::npos)
    for (auto& p : catalog)
      if (p.id.compare(0, family.size() + 1, family + ".") == 0) out.push_back(&p);
  if (!out.empty()) return out;
  std::vector<std::string> ids;
  for (auto& p : catalog) ids.push_back(p.id);
  std::vector<std::string> candidates = families_of(catalog);
  candidates.insert(candidates.end(), ids.begin(), ids.end());
  std::string hint = closest_match(word, candidates);
  throw InputError(option + ": unknown probe '" + word + "'" + (hint.empty() ? "" : ", did you mean '" + hint + "'?") +
                   " (families: " + joined(families_of(catalog)) + "; probes: " + joined(ids) + ")");
}

std::vector<ProbeSpec> select_without_skips(const std::vector<ProbeSpec>& catalog, const std::string& level,
                                            const std::vector<std::string>& only) {
  std::vector<ProbeSpec> out;
  if (!only.empty()) {
    for (auto& want : only)
      for (const ProbeSpec* p : expand(catalog, want, "--only"))
        // --only a,a runs a once: a probe is one measurement of this machine, not a repetition count.
        if (std::none_of(out.begin(), out.end(), [&](auto& q) { return q.id == p->id; })) out.push_back(*p);
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
  for (auto& word : skip)
    for (const ProbeSpec* p : expand(catalog, word, "--skip")) {
      std::string id = p->id;
      out.erase(std::remove_if(out.begin(), out.end(), [&](const ProbeSpec& q) { return q.id == id; }), out.end());
    }
  return out;
}

}  // namespace gpucheck::runner
