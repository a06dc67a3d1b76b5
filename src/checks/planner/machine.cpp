#include "checks/planner/machine.h"

#include <algorithm>
#include <filesystem>

#include "checks/compiler/host_compiler.h"
#include "core/cuda_version.h"
#include "knowledge/pep440.h"

namespace gpucheck::planner {
namespace {

std::string major_minor_of(const std::string& v) {
  auto p = knowledge::pep440::Version::parse(v);
  if (!p || p->release.size() < 2) return "";
  return std::to_string(p->release[0]) + "." + std::to_string(p->release[1]);
}

/// PEP 668: the marker file in the interpreter's stdlib directory (only readable on the live system).
bool externally_managed(const inventory::Inventory& inv, const inventory::PythonEnv& py) {
  if (py.kind == "venv" || py.kind == "conda" || py.prefix.empty()) return false;
  std::string mm = major_minor_of(py.version);
  if (mm.empty()) return false;
  std::string root = inv.root.empty() || inv.root == "/" ? "" : inv.root;
  std::error_code ec;
  return std::filesystem::exists(root + py.prefix + "/lib/python" + mm + "/EXTERNALLY-MANAGED", ec);
}

}  // namespace

Machine machine_from_inventory(const inventory::Inventory& inv, const inventory::PythonEnv* py,
                               const std::string& nvcc, const std::string& nvcc_root) {
  Machine m;
  m.python = "python3";
  if (py) {
    m.python = py->interpreter.empty() ? "python3" : py->interpreter;
    m.python_version = py->version;
    m.externally_managed = externally_managed(inv, *py);
    if (py->torch_installed) {
      m.installed_torch = py->torch_version;
      m.installed_torch_cuda = py->torch_cuda;
      m.installed_torch_archs = py->torch_arch_list;
    }
    for (const auto& [name, version] : py->packages) m.installed[knowledge::pep440::normalize_name(name)] = version;
  }
  for (const auto& p : inv.pythons)
    if (p.kind == "conda") m.conda = true;
  if (inv.system.environment.count("CONDA_EXE") || inv.system.environment.count("CONDA_PREFIX")) m.conda = true;
  if (inv.driver.present && inv.driver.cuda_version > 0) m.driver_cuda = cuda_int_to_string(inv.driver.cuda_version);
  if (inv.driver.present) m.driver_version = inv.driver.version;
  for (const auto& g : inv.gpus) {
    std::string cc = std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor);
    if (g.cc_major > 0 && std::find(m.gpu_ccs.begin(), m.gpu_ccs.end(), cc) == m.gpu_ccs.end()) m.gpu_ccs.push_back(cc);
  }
  m.glibc = inv.system.glibc;
  m.nvcc = major_minor_of(nvcc);
  m.nvcc_root = nvcc_root;
  for (const auto& t : inv.toolkits)
    if (!t.nvcc.empty() && t.root != nvcc_root && !major_minor_of(t.version).empty())
      m.other_toolkits.push_back({major_minor_of(t.version), t.root});
  auto choice = compiler::choose_host_compiler(inv);
  if (choice.compiler && choice.family == "gcc") m.gcc = choice.compiler->version;
  if (auto it = inv.system.environment.find("TORCH_CUDA_ARCH_LIST"); it != inv.system.environment.end())
    m.arch_list = it->second;
  return m;
}

}  // namespace gpucheck::planner
