#include "checks/explain/fix_facts.h"

#include <cctype>

#include "checks/compiler/host_compiler.h"
#include "core/cuda_version.h"
#include "core/text.h"
#include "knowledge/version.h"

namespace gpucheck::explain {

std::string major_minor(const std::string& raw) {
  std::string v = trim(raw);
  if (starts_with(v, "cu") && v.size() >= 5 && std::isdigit(static_cast<unsigned char>(v[2])))
    return knowledge::cuda_tag_to_version(v);  // cu118 -> 11.8, cu121 -> 12.1
  if (!v.empty() && v.find('.') == std::string::npos && v.size() >= 4 && v.size() <= 6) {
    for (char c : v)
      if (!std::isdigit(static_cast<unsigned char>(c))) return "";
    return cuda_int_to_string(std::stoi(v));  // 11080 -> 11.8, 12040 -> 12.4
  }
  auto parts = split(v, '.');
  if (parts.size() < 2 || parts[0].empty() || parts[1].empty()) return "";
  for (const auto& p : {parts[0], parts[1]})
    for (char c : p)
      if (!std::isdigit(static_cast<unsigned char>(c))) return "";
  return parts[0] + "." + parts[1];
}

namespace {

std::optional<std::string> inventory_fact(const inventory::Inventory& inv, const std::string& fn,
                                          const std::vector<std::string>& args) {
  const auto* py = inventory::primary_python(inv);
  if (fn == "env_toolkit_root" && args.size() == 1) {
    std::string want = major_minor(args[0]);
    for (const auto& t : inv.toolkits)
      if (!want.empty() && major_minor(t.version) == want) return nonempty(t.root);
    return std::nullopt;
  }
  if (fn == "env_toolkits") {
    std::vector<std::string> parts;
    for (const auto& t : inv.toolkits) parts.push_back(major_minor(t.version) + " at " + t.root);
    return nonempty(join(parts, ", "));
  }
  if (fn == "env_nvcc_cuda") {
    for (const auto& c : inv.toolkit_choices)
      if (c.consumer == "path" && !c.version.empty()) return major_minor(c.version);
    return std::nullopt;
  }
  if (fn == "env_torch") return py ? nonempty(py->torch_version) : std::nullopt;
  if (fn == "env_torch_cuda") return py ? nonempty(py->torch_cuda) : std::nullopt;
  if (fn == "env_python") return py ? nonempty(py->interpreter) : std::nullopt;
  if (fn == "env_python_version") return py ? nonempty(py->version) : std::nullopt;
  if (fn == "env_driver") return inv.driver.present ? nonempty(inv.driver.version) : std::nullopt;
  if (fn == "env_driver_cuda")
    return inv.driver.present && inv.driver.cuda_version > 0 ? nonempty(major_minor(std::to_string(inv.driver.cuda_version)))
                                                               : std::nullopt;
  if (fn == "env_gpu_cc")
    return inv.gpus.empty() ? std::nullopt
                            : nonempty(std::to_string(inv.gpus[0].cc_major) + "." + std::to_string(inv.gpus[0].cc_minor));
  if (fn == "env_gcc") {  // the gcc nvcc would use: the same choice env and doctor judge
    auto choice = compiler::choose_host_compiler(inv);
    if (choice.compiler && choice.family == "gcc") return nonempty(choice.compiler->version);
    return std::nullopt;
  }
  // Only when the collector looked for the driver and says why it is absent (an empty document says nothing).
  if (fn == "env_driver_absent")
    return !inv.driver.present && !inv.driver.error.empty() ? std::optional<std::string>("yes") : std::nullopt;
  if (fn == "env_glibc") return nonempty(inv.system.glibc);
  if (fn == "env_glibcxx_max") return nonempty(inv.system.glibcxx_max);
  return std::nullopt;
}

}  // namespace

FactCall make_fact_call(const inventory::Inventory* inv, KnowledgeCall knowledge) {
  return [inv, knowledge](const std::string& fn, const std::vector<std::string>& args) -> std::optional<std::string> {
    if (fn == "mm" && args.size() == 1) return nonempty(major_minor(args[0]));
    if (fn == "cu_tag" && args.size() == 1) {
      std::string mm = major_minor(args[0]);
      if (mm.empty()) return std::nullopt;
      std::string digits;
      for (char c : mm)
        if (c != '.') digits += c;
      return "cu" + digits;
    }
    if (starts_with(fn, "env_")) return inv ? inventory_fact(*inv, fn, args) : std::nullopt;
    if (starts_with(fn, "kb_")) return knowledge ? knowledge(fn, args) : std::nullopt;
    return std::nullopt;
  };
}

}  // namespace gpucheck::explain
