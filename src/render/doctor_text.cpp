// `gpucheck doctor` on a terminal, from its Report alone (report/doctor_report.h): where the facts came
// from, the toolkits in the judged inventory, one block per finding, the install plan, and the counts.
#include "knowledge/version.h"
#include "render/text_blocks.h"

namespace gpucheck::render::text {
namespace {

std::string str(const nlohmann::json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

/// "12.1 at /usr/local/cuda-12.1", with " (no nvcc)" for a toolkit without one.
std::string toolkit_line(const nlohmann::json& t) {
  auto v = compat::Version::parse(str(t, "version"));
  return (v ? v->major_minor() : "") + " at " + str(t, "root") + (str(t, "nvcc").empty() ? " (no nvcc)" : "");
}

/// "python 3.11.7 at /venv/bin/python (venv, chosen by --python), torch 2.1.2+cu121 (CUDA 12.1)".
std::string judged_python_line(const std::optional<model::JudgedPython>& judged) {
  if (!judged) return "no Python environment";
  const model::JudgedPython& p = *judged;
  std::string why = p.kind + (p.kind.empty() || p.chosen_by.empty() ? "" : ", ") +
                    (p.chosen_by.empty() ? "" : "chosen by " + p.chosen_by);
  std::string torch = p.torch.empty() ? "no torch"
                      : "torch " + p.torch + (p.torch_cuda.empty() ? " (CPU build)" : " (CUDA " + p.torch_cuda + ")");
  return "python " + p.version + " at " + p.interpreter + (why.empty() ? "" : " (" + why + ")") + ", " + torch;
}

}  // namespace

void doctor(const report::Report& r, const model::DoctorDetails& d, std::ostream& out, const RenderOptions& o) {
  out << "gpucheck doctor (" << d.inventory_source << ")\n";
  out << "judged: " << judged_python_line(d.python) << "\n";
  const nlohmann::json toolkits =
      r.inventory.is_object() ? r.inventory.value("toolkits", nlohmann::json::array()) : nlohmann::json::array();
  out << "toolkits found:" << (toolkits.empty() ? " none" : "") << "\n";
  for (const auto& t : toolkits) out << "  " << toolkit_line(t) << "\n";
  for (const auto& n : r.notes) out << "inventory note: " << n << "\n";

  const report::Section* findings = r.find_section("findings");
  if (!findings || findings->findings.empty()) out << "no findings about the installed stack\n";
  if (findings)
    for (const auto& f : findings->findings) {
      finding_block(f, out, o);
    }

  if (const report::Section* plan = r.find_section("plan")) {
    const Finding* itself = nullptr;
    for (const auto& f : plan->findings) {
      if (!itself && model::is_install_plan(f)) {
        itself = &f;
        out << "\n" << f.title << ": " << f.summary << "\n";
        for (const auto& e : f.evidence) out << "  " << e.value << "\n";  // what the plans could not check
        continue;
      }
      finding_block(f, out, o);
    }
    if (itself && !itself->fixes.empty()) out << "  install paths, best first:\n";
    if (itself)
      for (const auto& fx : itself->fixes) fix_block(fx, "  ", out);
  }
}

}  // namespace gpucheck::render::text
