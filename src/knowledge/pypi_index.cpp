#include "knowledge/pypi_index.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/files.h"
#include "core/text.h"
#include "knowledge/pep440.h"
#include "knowledge/text_pattern.h"

namespace gpucheck::knowledge {

bool PypiRelease::has_wheel_for(const std::string& python_mm) const {
  auto v = pep440::Version::parse(python_mm);
  if (!v || v->release.size() < 2) return false;
  long major = v->release[0], minor = v->release[1];
  std::string cp = "cp" + std::to_string(major) + std::to_string(minor);
  for (const auto& tag : linux_wheel_pythons) {
    if (tag == cp || tag == "py" + std::to_string(major) || tag == "py" + std::to_string(major) + std::to_string(minor))
      return true;
    // cp38-abi3 / py39 (as xformers tags its abi3 wheels): that minor and every newer one of the major.
    static const TextPattern stable(R"((?:cp|py)(\d)(\d{1,9})(-abi3)?)");
    auto m = stable.match(tag);
    if (m && (m->matched(3) || tag.rfind("py", 0) == 0) && std::stol(m->str(1)) == major &&
        std::stol(m->str(2)) <= minor)
      return true;
  }
  return false;
}

bool PypiRelease::python_allowed(const std::string& python_version) const {
  if (trim(requires_python).empty()) return true;
  try {
    return pep440::SpecifierSet::parse(requires_python).contains(python_version, true);
  } catch (const InputError&) {
    return true;  // pip ignores a Requires-Python it cannot parse
  }
}

const PypiRelease* PypiPackage::find(const std::string& version) const {
  auto want = pep440::Version::parse(version);
  if (!want) return nullptr;
  for (const auto& r : releases) {
    auto v = pep440::Version::parse(r.version);
    if (v && v->compare(*want, false) == 0) return &r;
  }
  return nullptr;
}

std::vector<std::string> PypiPackage::versions() const {
  std::vector<std::string> out;
  for (const auto& r : releases)
    if (!r.yanked) out.push_back(r.version);
  return out;
}

PypiIndex PypiIndex::load(const std::string& path) {
  nlohmann::json doc = read_json_file(path);
  PypiIndex idx;
  auto bad = [&](const std::string& why) { return InputError("knowledge base " + path + ": " + why); };
  if (!doc.is_object() || doc.value("schema", "") != "gpucheck.compat.pypi/1")
    throw bad("schema must be \"gpucheck.compat.pypi/1\"");
  try {
    for (const auto& p : doc.at("packages")) {
      PypiPackage pkg;
      pkg.name = pep440::normalize_name(p.at("name").get<std::string>());
      pkg.index = p.value("index", "");
      pkg.source = p.value("source", "");
      for (const auto& r : p.at("versions")) {
        PypiRelease rel;
        rel.version = r.at("version");
        rel.source = r.value("source", "");
        if (!starts_with(rel.source, "https://"))
          throw bad("packages." + pkg.name + " " + rel.version + ": no source URL");
        if (!pep440::Version::parse(rel.version)) throw bad(pkg.name + ": '" + rel.version + "' is not a version");
        rel.yanked = r.value("yanked", false);
        rel.linux_wheel_pythons = r.value("linux_wheel_pythons", std::vector<std::string>{});
        rel.manylinux_glibc = r.value("manylinux_glibc", "");
        rel.sdist = r.value("sdist", false);
        rel.requires_python = r.value("requires_python", "");
        rel.requires_dist = r.value("requires_dist", std::vector<std::string>{});
        rel.summary = r.value("summary", "");
        rel.uploaded = r.value("uploaded", "");
        pkg.releases.push_back(std::move(rel));
      }
      std::stable_sort(pkg.releases.begin(), pkg.releases.end(), [](const PypiRelease& a, const PypiRelease& b) {
        return *pep440::Version::parse(a.version) < *pep440::Version::parse(b.version);
      });
      idx.packages_.push_back(std::move(pkg));
    }
    for (const auto& b : doc.value("abi_breaks", nlohmann::json::array())) {
      AbiBreak ab{b.at("package"), b.at("version"), b.value("dependents", std::vector<std::string>{}), b.value("source", "")};
      if (!starts_with(ab.source, "https://")) throw bad("abi_breaks " + ab.package + ": no source URL");
      idx.abi_breaks_.push_back(std::move(ab));
    }
  } catch (const nlohmann::json::exception& e) {
    throw bad(e.what());
  }
  return idx;
}

const PypiPackage* PypiIndex::package(const std::string& name) const {
  std::string n = pep440::normalize_name(name);
  for (const auto& p : packages_)
    if (p.name == n) return &p;
  return nullptr;
}

std::string cuda_of_requires_dist(const std::vector<std::string>& requires_dist) {
  static const TextPattern runtime(
      R"(^nvidia-cuda-runtime(?:-cu\d+)?[[:space:]]*\(?[[:space:]]*==[[:space:]]*(\d+)\.(\d+))");
  static const TextPattern toolkit(R"(^cuda-toolkit\[[^\]]*\][[:space:]]*==[[:space:]]*(\d+)\.(\d+))");
  for (const auto& line : requires_dist) {
    std::string l = trim(line);
    auto m = runtime.search(l);
    if (!m) m = toolkit.search(l);
    if (m) return m->str(1) + "." + m->str(2);
  }
  return "";
}

}  // namespace gpucheck::knowledge
