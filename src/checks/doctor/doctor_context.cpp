#include "checks/doctor/doctor_context.h"

#include <filesystem>

#include "knowledge/version.h"
#include "core/text.h"

namespace gpucheck::doctor {
namespace {

std::string strip_slashes(std::string p) {
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

}  // namespace

std::string major_minor(const std::string& version) {
  auto v = knowledge::Version::parse(version);
  return v ? v->major_minor() : "";
}

std::string toolkit_lib_dir(const inventory::Toolkit& t) {
  std::error_code ec;
  if (std::filesystem::is_directory(t.root + "/lib64", ec)) return t.root + "/lib64";
  if (std::filesystem::is_directory(t.root + "/lib", ec)) return t.root + "/lib";
  return t.root + "/lib64";
}

const std::string& DoctorContext::real_path(const std::string& path) const {
  auto it = real_paths_.find(path);
  if (it != real_paths_.end()) return it->second;
  std::error_code ec;
  auto real = std::filesystem::canonical(path, ec);
  return real_paths_.emplace(path, ec ? std::filesystem::path(path).lexically_normal().string() : real.string())
      .first->second;
}

DoctorContext::DoctorContext(const inventory::Inventory& inventory, const knowledge::KnowledgeBase& knowledge)
    : inv(inventory), kb(knowledge) {
  auto judged = inventory::judged_python(inv);
  python = judged.env;
  python_rule = judged.rule;

  for (const auto& dir : split(env("PATH"), ':')) {
    for (const auto& t : inv.toolkits) {
      if (!t.nvcc.empty() && strip_slashes(dir) == strip_slashes(t.root + "/bin")) path_toolkit = &t;
      else if (!t.nvcc.empty() && dir == "/usr/local/cuda/bin" && t.is_usr_local_cuda) path_toolkit = &t;
      if (path_toolkit) break;
    }
    if (path_toolkit) break;
  }

  // torch takes the first of these that is set, as given (the collector applies the same order).
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
    if (!has_env(var)) continue;
    build.variable = var;
    build.value = env(var);
    break;
  }
  // The collector may already have resolved torch's choice; trust it when it did.
  for (const auto& c : inv.toolkit_choices) {
    if (c.consumer != "torch_cpp_extension") continue;
    build.via = "inventory";
    build.reason = c.reason;
    build.toolkit = c.root.empty() ? nullptr : toolkit_at(c.root);
    build.dangling = !c.root.empty() && !build.toolkit;
    if (build.dangling) build.dangling_path = c.root;
    return;
  }
  if (!build.variable.empty()) {
    build.via = build.variable;
    build.reason = build.variable + "=" + build.value;
    build.toolkit = toolkit_at(build.value);
    build.dangling = !build.toolkit;
    if (build.dangling) build.dangling_path = build.value;
    return;
  }
  if (path_toolkit) {
    build.toolkit = path_toolkit;
    build.via = "PATH";
    build.reason = "nvcc on PATH: " + path_toolkit->nvcc;
    return;
  }
  for (const auto& t : inv.toolkits) {
    if (t.is_usr_local_cuda) {
      build.toolkit = &t;
      build.via = "/usr/local/cuda";
      build.reason = "/usr/local/cuda -> " + t.root;
      return;
    }
  }
}

std::string DoctorContext::env(const std::string& name) const {
  auto it = inv.system.environment.find(name);
  return it == inv.system.environment.end() ? "" : it->second;
}

bool DoctorContext::has_env(const std::string& name) const { return !env(name).empty(); }

std::string DoctorContext::python_label() const {
  if (!python) return "no Python environment";
  // A pasted report's interpreter is only the word `python` its fixes print: the report is the source.
  if (python_from_paste())
    return python->version.empty() ? "the pasted report" : "the pasted report (python " + python->version + ")";
  return "python " + python->version + " at " + python->interpreter;
}

bool DoctorContext::python_from_paste() const { return python && python_rule == inventory::kPastedReportRule; }

const inventory::Toolkit* DoctorContext::toolkit_at(const std::string& root_in) const {
  std::string root = strip_slashes(root_in);
  for (const auto& t : inv.toolkits)
    if (strip_slashes(t.root) == root) return &t;
  if (root == "/usr/local/cuda")
    for (const auto& t : inv.toolkits)
      if (t.is_usr_local_cuda) return &t;
  return nullptr;
}

std::vector<const inventory::Toolkit*> DoctorContext::toolkits_with(const std::string& mm) const {
  std::vector<const inventory::Toolkit*> out;
  for (const auto& t : inv.toolkits)
    if (!t.version.empty() && major_minor(t.version) == mm && !t.nvcc.empty()) out.push_back(&t);
  std::stable_sort(out.begin(), out.end(), [](auto* a, auto* b) {
    return starts_with(a->root, "/usr/local/cuda-") && !starts_with(b->root, "/usr/local/cuda-");
  });
  return out;
}

std::string DoctorContext::torch_cuda() const {
  return python && python->torch_installed ? python->torch_cuda : "";
}

std::string DoctorContext::import_error(const std::string& distribution) const {
  if (!python) return "";
  std::string module = distribution;
  for (auto& c : module)
    if (c == '-') c = '_';
  for (const auto& key : {distribution, module}) {
    auto it = python->import_errors.find(key);
    if (it != python->import_errors.end()) return it->second;
  }
  return "";
}

}  // namespace gpucheck::doctor
