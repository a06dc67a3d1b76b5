#include "knowledge/knowledge_base.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>

#include "knowledge/kb_schema.h"
#include "knowledge/pep440.h"
#include "knowledge/version.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/paths.h"
#include "core/text.h"

namespace gpucheck::knowledge {
namespace {

using nlohmann::json;

std::vector<std::string> strings(const json& j, const char* key) {
  std::vector<std::string> out;
  if (j.contains(key) && j[key].is_array())
    for (const auto& v : j[key])
      if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

/// Same major.minor ("11.8.89" matches "11.8").
bool same_minor(const std::string& a, const std::string& b) {
  auto va = Version::parse(a), vb = Version::parse(b);
  return va && vb && va->major() == vb->major() && va->minor() == vb->minor();
}

}  // namespace

const TorchBuild* TorchRelease::build_for_cuda(const std::string& cuda) const {
  std::string want = starts_with(cuda, "cu") ? cuda_tag_to_version(cuda) : cuda;
  for (const auto& b : builds)
    if (same_minor(b.cuda, want)) return &b;
  return nullptr;
}

std::string TorchRelease::install_command(const TorchBuild& b) const {
  // Up to 1.12 the CUDA wheels carry a local version and are found with --extra-index-url; from 1.13 a
  // per-CUDA index holds plain version numbers.
  if (compare_versions(version, "1.13") < 0)
    return "pip install torch==" + latest_patch + "+" + b.tag + " --extra-index-url " + b.index_url;
  return "pip install torch==" + latest_patch + " --index-url " + b.index_url;
}

bool TorchRelease::supports_python(const std::string& python_version) const {
  auto v = Version::parse(python_version);
  if (!v) return false;
  std::string mm = v->major_minor();
  return compare_versions(mm, python_min) >= 0 && compare_versions(mm, python_max) <= 0;
}

bool ExtensionRelease::needs_rtld_global(const std::string& torch_version) const {
  return !rtld_global_torch.empty() && !torch_version.empty() && satisfies(torch_version, rtld_global_torch);
}

std::string ExtensionRelease::arch_env_value(const std::string& torch_arch_list) const {
  auto capability = [](std::string a) -> std::optional<std::pair<int, int>> {  // "8.6+PTX" / "9.0a" -> {8, 6}
    a = a.substr(0, a.find('+'));
    auto dot = a.find('.');
    if (dot == std::string::npos || dot == 0 || dot > 2 || dot + 1 >= a.size() || !std::isdigit(static_cast<unsigned char>(a[dot + 1])))
      return std::nullopt;
    for (size_t i = 0; i < dot; ++i)
      if (!std::isdigit(static_cast<unsigned char>(a[i]))) return std::nullopt;
    return std::make_pair(std::stoi(a.substr(0, dot)), a[dot + 1] - '0');
  };
  std::vector<std::string> out;
  std::string list = torch_arch_list;
  std::replace(list.begin(), list.end(), ' ', ';');
  for (const auto& part : split(list, ';')) {
    auto cc = capability(part);
    if (!cc) continue;
    std::string best;
    int best_minor = -1;
    for (const auto& v : arch_env_values) {
      if (v.size() < 2 || v.size() > 3 || !std::all_of(v.begin(), v.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
        continue;
      int n = std::stoi(v);
      if (n / 10 == cc->first && n % 10 <= cc->second && n % 10 > best_minor) {
        best = v;
        best_minor = n % 10;
      }
    }
    if (!best.empty() && !contains(out, best)) out.push_back(best);
  }
  return join(out, ";");
}

const ExtensionRelease* ExtensionInfo::release_for(const std::string& version) const {
  for (const auto& r : releases)
    if (satisfies(version, r.versions)) return &r;
  return nullptr;
}

KnowledgeBase KnowledgeBase::load(const std::string& dir_in) {
  KnowledgeBase kb;
  kb.dir_ = dir_in.empty() ? data_path("compat") : dir_in;
  std::map<std::string, json> docs;
  for (const auto& file : compat_files()) {
    if (file == "pypi.json") {  // large and rarely needed: pypi() reads it on first use
      if (!std::filesystem::is_regular_file(kb.dir_ + "/" + file)) throw InputError("knowledge base " + kb.dir_ + ": " + file + " missing");
      continue;
    }
    json doc = read_json_file(kb.dir_ + "/" + file);
    auto errors = validate_compat_document(doc, file);
    if (!errors.empty())
      throw InputError("knowledge base " + kb.dir_ + ": " + errors.front() +
                       (errors.size() > 1 ? " (and " + std::to_string(errors.size() - 1) + " more)" : ""));
    docs[file] = std::move(doc);
  }
  try {
    for (const auto& f : docs["driver.json"]["toolkit_min_driver"])
      kb.drivers_.push_back({f["cuda"], f["min_driver"], f["source"]});
    for (const auto& f : docs["driver.json"]["minor_version_compat"])
      kb.minor_compat_.push_back({f["cuda_major"], f["min_driver"], f.value("note", ""), f["source"]});
    for (const auto& f : docs["host_compilers.json"]["nvcc_host_compilers"])
      kb.compilers_.push_back({f["cuda"], f["gcc_min"], f["gcc_max"], f["clang_min"], f["clang_max"],
                               f.value("note", ""), f["source"]});
    for (const auto& f : docs["cuda_archs.json"]["architectures"])
      kb.archs_.push_back({f["cc"], f.value("family", ""), f.value("examples", ""), f["first_cuda"],
                           f["last_cuda"], f["source"]});
    std::sort(kb.archs_.begin(), kb.archs_.end(),
              [](const ArchInfo& a, const ArchInfo& b) { return compare_versions(a.cc, b.cc) < 0; });
    for (const auto& f : docs["torch.json"]["releases"]) {
      TorchRelease r;
      r.version = f["version"];
      r.latest_patch = f["latest_patch"];
      r.python_min = f["python_min"];
      r.python_max = f["python_max"];
      r.cxx_standard = f["cxx_standard"];
      r.pypi_default_cuda = f["pypi_default_cuda"];
      r.note = f.value("note", "");
      r.source = f["source"];
      for (const auto& b : f["builds"])
        r.builds.push_back({b["tag"], b["cuda"], b["index_url"], b.value("cudnn", ""), b.value("nccl", ""),
                            b["cxx11_abi"], strings(b, "archs"), b.value("note", "")});
      kb.torch_.push_back(std::move(r));
    }
    const json& te = docs["torch_extensions.json"];
    for (const auto& f : te["cuda_version_check"])
      kb.cuda_checks_.push_back({f["torch"], f["check"], f.value("old_setuptools_all_fatal", false),
                                 f.value("text", ""), f.value("minor_text", ""), f.value("note", ""), f["source"]});
    for (const auto& f : te["arch_list"]) kb.torch_arch_lists_.push_back({f["torch"], strings(f, "known")});
    std::vector<std::pair<int, std::string>> order;
    for (const auto& f : te["cuda_home_order"]) order.push_back({f["order"], f["how"]});
    std::sort(order.begin(), order.end());
    for (auto& o : order) kb.cuda_home_order_.push_back(o.second);
    for (const auto& p : docs["extensions.json"]["packages"]) {
      ExtensionInfo info;
      info.name = normalize_package_name(p["name"]);
      for (const auto& f : p["releases"]) {
        ExtensionRelease r;
        r.versions = f["versions"];
        r.distribution = f["distribution"];
        r.setup_imports_torch = f["setup_imports_torch"];
        r.build = f["build"];
        r.needs_nvcc = f["needs_nvcc"];
        r.torch_abi_coupled = f["torch_abi_coupled"];
        r.strict_minor = f.value("strict_minor", false);
        r.imports_with_other_torch = f.value("imports_with_other_torch", false);
        r.torch = f.value("torch", "");
        r.cuda_min = f.value("cuda_min", "");
        if (f.contains("cxx_std")) {  // a fact of its own: the flag and where it is read
          r.cxx_std = f["cxx_std"].at("std");
          r.cxx_std_source = f["cxx_std"].at("source");
        }
        r.min_cc = f.value("min_cc", "");
        r.archs = strings(f, "archs");
        r.own_gencode = f.value("own_gencode", false);
        if (f.contains("arch_env")) {  // a fact of its own: the variable, what it accepts, its source
          r.arch_env = f["arch_env"].at("name");
          r.arch_env_values = strings(f["arch_env"], "values");
          r.arch_env_source = f["arch_env"].at("source");
        }
        r.ptx = strings(f, "ptx");
        r.wheel_pythons = strings(f, "wheel_pythons");
        r.requires_dist = strings(f, "requires");
        r.wheel_pattern = f.value("wheel_pattern", "");
        r.recommended = f.value("recommended", "");
        r.install = strings(f, "install");
        r.note = f.value("note", "");
        r.source = f["source"];
        if (f.contains("import_needs_rtld_global")) {  // a fact of its own: each field, its source included, required
          const json& g = f["import_needs_rtld_global"];
          r.rtld_global_torch = g.at("torch");
          r.rtld_global_why = g.at("why");
          r.rtld_global_source = g.at("source");
          if (!pep440::SpecifierSet::try_parse(r.rtld_global_torch))
            throw InputError("knowledge base " + kb.dir_ + ": extensions.json: " + info.name +
                             " import_needs_rtld_global.torch is no specifier: " + r.rtld_global_torch);
        }
        info.releases.push_back(std::move(r));
      }
      kb.extensions_.push_back(std::move(info));
    }
    for (const auto& g : docs["shared_packages.json"]["groups"]) {
      SharedPackageGroup group;
      for (const auto& d : g["distributions"]) group.distributions.push_back(normalize_package_name(d));
      group.packages = g["packages"].get<std::vector<std::string>>();
      group.gpu_choice = g["gpu_choice"].get<std::string>();
      for (const auto& src : g["sources"]) group.sources.push_back(src["source"]);
      kb.shared_packages_.push_back(std::move(group));
    }
  } catch (const json::exception& e) {
    throw InputError("knowledge base " + kb.dir_ + ": " + e.what());
  }
  return kb;
}

std::optional<DriverMinimum> KnowledgeBase::driver_minimum(const std::string& cuda) const {
  for (const auto& d : drivers_)
    if (same_minor(d.cuda, cuda)) return d;
  return std::nullopt;
}

std::optional<MinorCompatFloor> KnowledgeBase::minor_compat_floor(int cuda_major) const {
  for (const auto& m : minor_compat_)
    if (m.cuda_major == cuda_major) return m;
  return std::nullopt;
}

std::optional<HostCompilerPolicy> KnowledgeBase::host_compilers(const std::string& cuda) const {
  auto v = Version::parse(cuda);
  if (!v) return std::nullopt;
  const HostCompilerPolicy* best = nullptr;
  for (const auto& c : compilers_) {
    auto cv = Version::parse(c.cuda);
    if (!cv || cv->major() != v->major() || cv->minor() > v->minor()) continue;
    if (!best || compare_versions(c.cuda, best->cuda) > 0) best = &c;
  }
  if (!best) return std::nullopt;
  return *best;
}

std::optional<ArchInfo> KnowledgeBase::arch(const std::string& cc) const {
  for (const auto& a : archs_)
    if (compare_versions(a.cc, cc) == 0) return a;
  return std::nullopt;
}

std::vector<ArchInfo> KnowledgeBase::archs_for_cuda(const std::string& cuda) const {
  std::vector<ArchInfo> out;
  auto v = Version::parse(cuda);
  if (!v) return out;
  std::string mm = v->major_minor();
  for (const auto& a : archs_) {
    if (compare_versions(mm, a.first_cuda) < 0) continue;
    if (!a.last_cuda.empty() && compare_versions(mm, a.last_cuda) > 0) continue;
    out.push_back(a);
  }
  return out;
}

bool KnowledgeBase::cuda_can_build(const std::string& cuda, const std::string& cc) const {
  for (const auto& a : archs_for_cuda(cuda))
    if (compare_versions(a.cc, cc) == 0) return true;
  return false;
}

const TorchRelease* KnowledgeBase::torch_release(const std::string& torch_version) const {
  auto v = Version::parse(torch_version);
  if (!v) return nullptr;
  for (const auto& r : torch_)
    if (compare_versions(r.version, v->major_minor()) == 0) return &r;
  return nullptr;
}

const TorchBuild* KnowledgeBase::torch_build(const std::string& torch_version, const std::string& cuda) const {
  const TorchRelease* r = torch_release(torch_version);
  return r ? r->build_for_cuda(cuda) : nullptr;
}

std::vector<const TorchRelease*> KnowledgeBase::torch_releases_with_cuda(const std::string& cuda) const {
  std::vector<const TorchRelease*> out;
  for (const auto& r : torch_)
    if (r.build_for_cuda(cuda)) out.push_back(&r);
  std::sort(out.begin(), out.end(),
            [](const TorchRelease* a, const TorchRelease* b) { return compare_versions(a->version, b->version) > 0; });
  return out;
}

std::optional<CudaCheckRule> KnowledgeBase::cuda_check_rule(const std::string& torch_version) const {
  auto v = Version::parse(torch_version);
  if (!v) return std::nullopt;
  std::string plain;
  for (std::size_t i = 0; i < v->parts.size(); ++i) plain += (i ? "." : "") + std::to_string(v->parts[i]);
  for (const auto& c : cuda_checks_)
    if (satisfies(plain, c.torch)) return c;
  return std::nullopt;
}

std::vector<std::string> KnowledgeBase::torch_known_archs(const std::string& torch_version) const {
  auto v = Version::parse(torch_version);
  if (!v) return {};
  for (const auto& [spec, known] : torch_arch_lists_)
    if (satisfies(v->major_minor(), spec)) return known;
  return {};
}

const PypiIndex& KnowledgeBase::pypi() const {
  std::call_once(pypi_->once, [this] {
    std::string path = dir_ + "/pypi.json";
    json doc = read_json_file(path);
    auto errors = validate_compat_document(doc, "pypi.json");
    if (!errors.empty())
      throw InputError("knowledge base " + dir_ + ": " + errors.front() +
                       (errors.size() > 1 ? " (and " + std::to_string(errors.size() - 1) + " more)" : ""));
    pypi_->index = std::make_unique<PypiIndex>(PypiIndex::load(path));
  });
  if (!pypi_->index) throw InputError("knowledge base " + dir_ + ": pypi.json could not be read");
  return *pypi_->index;
}

const ExtensionInfo* KnowledgeBase::extension(const std::string& name) const {
  std::string n = normalize_package_name(name);
  for (const auto& e : extensions_)
    if (e.name == n) return &e;
  return nullptr;
}

}  // namespace gpucheck::knowledge
