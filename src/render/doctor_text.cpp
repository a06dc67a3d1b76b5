// `gpucheck doctor` on a terminal, from its Report alone (report/doctor_report.h): where the facts came
// from, the toolkits in the judged inventory, one block per finding, the install plan, and the counts.
#include <map>

#include "core/text.h"
#include "knowledge/version.h"
#include "render/text_blocks.h"

namespace gpucheck::render::text {
namespace {

std::string str(const nlohmann::json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

/// "12.1 at /usr/local/cuda-12.1", with " (no nvcc)" for a toolkit without one.
std::string toolkit_line(const nlohmann::json& t) {
  auto v = knowledge::Version::parse(str(t, "version"));
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
  // A pasted report names no interpreter path: "python 3.10.12 of the pasted report, torch ..." (the rule is
  // inventory::kPastedReportRule; render sees only the report's JSON).
  if (p.chosen_by == "pasted report") return "python " + (p.version.empty() ? "" : p.version + " ") + "of the pasted report, " + torch;
  return "python " + (p.version.empty() ? "" : p.version + " ") + "at " + p.interpreter + (why.empty() ? "" : " (" + why + ")") + ", " + torch;
}

/// What sets path `alt` apart from the path above it (best first), and when one would take it instead: "torch 2.14.1 (CUDA
/// 13.0) instead of 2.15.0: for torch<2.15 or CUDA 13.0".
std::string alternative_line(const model::InstallPath& best, const model::InstallPath& alt) {
  std::vector<std::string> differs, why;
  const std::string &bv = best.torch_version, &av = alt.torch_version, &bc = best.torch_cuda, &ac = alt.torch_cuda;
  if (alt.torch_installed && !best.torch_installed) {
    differs.push_back("keeps the installed torch " + av);
    why.push_back("nothing to download, no extension to rebuild");
  } else if (av != bv) {
    differs.push_back("torch " + av + (ac != bc ? " (CUDA " + (ac.empty() ? std::string("none") : ac) + ")" : "") +
                      " instead of " + bv);
    auto a = knowledge::Version::parse(av), b = knowledge::Version::parse(bv);
    if (a && b && knowledge::compare_versions(av, bv) < 0)
      why.push_back("torch<" + b->major_minor());
    else
      why.push_back("torch " + (a ? a->major_minor() : av));
  } else if (ac != bc) {
    differs.push_back("torch built for CUDA " + (ac.empty() ? std::string("none (CPU)") : ac) + " instead of " + bc);
  }
  if (ac != bc && !ac.empty()) why.push_back("CUDA " + ac);
  std::map<std::string, std::string> best_pkgs(best.packages.begin(), best.packages.end());
  for (const auto& [name, version] : alt.packages) {
    auto it = best_pkgs.find(name);
    if (name == "torch" || it == best_pkgs.end() || it->second == version) continue;
    differs.push_back(name + " " + version + " instead of " + it->second);
    why.push_back(name + "==" + version);  // that exact release (e.g. the one asked, built here)
  }
  if (differs.empty()) return "the same packages, installed another way";
  return join(differs, ", ") + (why.empty() ? "" : ": for " + join(why, " or "));
}

}  // namespace

void doctor(const model::Report& r, const model::DoctorDetails& d, std::ostream& out, const RenderOptions& o) {
  const model::Section* plan = r.find_section("plan");
  const Finding* itself = nullptr;
  if (plan)
    for (const auto& f : plan->findings)
      if (!itself && model::is_install_plan(f)) itself = &f;
  // doctor --for: the plan is the answer. Without -v the first screen is what was judged in a line, each
  // finding in a line, and one install path in full with the others in a line each; -v has every detail.
  const bool brief = itself && !o.verbose;
  const nlohmann::json toolkits =
      r.inventory.is_object() ? r.inventory.value("toolkits", nlohmann::json::array()) : nlohmann::json::array();
  // The brief leaves out the notes (info, pass) and the inventory's failed lookups, and says how many.
  std::size_t left_out = r.notes.size();
  for (const char* name : {"findings", "plan"})
    if (const auto* sec = r.find_section(name))
      for (const auto& f : sec->findings)
        if (&f != itself && severity(f.status) < severity(Status::kWarn)) ++left_out;
  if (brief) {
    std::vector<std::string> tks;
    for (const auto& t : toolkits) {
      auto v = knowledge::Version::parse(str(t, "version"));
      tks.push_back((v ? v->major_minor() : str(t, "version")) + (str(t, "nvcc").empty() ? " (no nvcc)" : ""));
    }
    const std::string torch = d.python ? d.python->torch : "";
    out << "gpucheck doctor: " << (d.python ? "python " + d.python->version + " (" + d.python->kind + "), " : "no Python, ")
        << (torch.empty() ? "no torch" : "torch " + torch) << "; CUDA toolkit " << (tks.empty() ? "none" : join(tks, ", "))
        << (left_out ? "; " + std::to_string(left_out) + " notes: -v" : "") << "\n";
  } else {
    out << "gpucheck doctor (" << d.inventory_source << ")\n";
    out << "judged: " << judged_python_line(d.python) << "\n";
    out << "toolkits found:" << (toolkits.empty() ? " none" : "") << "\n";
    for (const auto& t : toolkits) out << "  " << toolkit_line(t) << "\n";
    for (const auto& n : r.notes) out << "inventory note: " << n << "\n";
  }
  // Brief: a finding that needs attention in one line, its title up to the first ": " (the rest is -v's).
  auto finding = [&](const Finding& f) {
    if (!brief) return finding_block(f, out, o);
    if (severity(f.status) < severity(Status::kWarn)) return;
    out << status_word(f.status, o.color) << " " << f.title.substr(0, f.title.find(": ")) << "  [" << f.id << "]\n";
  };

  const model::Section* findings = r.find_section("findings");
  if (!findings || findings->findings.empty()) out << "no findings about the installed stack\n";
  if (findings)
    for (const auto& f : findings->findings) finding(f);
  if (!plan) return;
  for (const auto& f : plan->findings)
    if (&f != itself) finding(f);
  if (!itself) return;
  // One path to take; the others in a line each (what differs from the one above, why one would take it),
  // in full with -v.
  const std::vector<model::InstallPath> plans = model::install_paths(*itself);
  const bool one_path = brief && itself->fixes.size() > 1 && plans.size() == itself->fixes.size();
  out << (brief ? "" : "\n") << itself->title << ": " << itself->summary
      << (one_path ? "; the best path, then the others, each against the one above (in full: -v):" : "") << "\n";
  if (!brief)
    for (const auto& e : itself->evidence) out << "  " << e.value << "\n";  // what the plans could not check
  if (!itself->fixes.empty() && !one_path) out << "  install paths, best first:\n";
  for (std::size_t i = 0; i < itself->fixes.size(); ++i) {
    if (!one_path || i == 0) fix_block(itself->fixes[i], "  ", out);
    else out << "  " << itself->fixes[i].rank << ". " << alternative_line(plans[i - 1], plans[i]) << "\n";
  }
}

}  // namespace gpucheck::render::text
