#include "model/doctor_details.h"

#include "model/json_fields.h"

namespace gpucheck::model {

nlohmann::json to_json(const DoctorDetails& d) {
  nlohmann::json python = nullptr;
  if (d.python) {
    const JudgedPython& p = *d.python;
    python = {{"interpreter", p.interpreter}, {"executable", p.executable}, {"version", p.version},
              {"prefix", p.prefix},           {"kind", p.kind},             {"chosen_by", p.chosen_by},
              {"torch", p.torch},             {"torch_cuda", p.torch_cuda}};
  }
  return {{"inventory_source", d.inventory_source}, {"knowledge_base", d.knowledge_base}, {"python", python}};
}

DoctorDetails doctor_details(const model::Report& r) {
  DoctorDetails d;
  d.inventory_source = text_at(r.details, "inventory_source");
  d.knowledge_base = text_at(r.details, "knowledge_base");
  const nlohmann::json& p = member(r.details, "python");
  if (p.is_object())
    d.python = JudgedPython{text_at(p, "interpreter"), text_at(p, "executable"), text_at(p, "version"),
                            text_at(p, "prefix"),      text_at(p, "kind"),       text_at(p, "chosen_by"),
                            text_at(p, "torch"),       text_at(p, "torch_cuda")};
  return d;
}

bool is_install_plan(const Finding& f) { return f.details.is_object() && f.details.contains("verdict"); }

}  // namespace gpucheck::model

namespace gpucheck::model {

std::vector<InstallPath> install_paths(const Finding& plan) {
  std::vector<InstallPath> out;
  const nlohmann::json& plans = member(plan.details, "plans");
  if (!plans.is_array()) return out;
  for (const auto& p : plans) {
    InstallPath path;
    const nlohmann::json& torch = member(p, "torch");
    path.torch_version = text_at(torch, "version");
    path.torch_cuda = text_at(torch, "cuda");
    path.torch_installed = flag_at(torch, "installed");
    const nlohmann::json& pkgs = member(p, "packages");
    if (pkgs.is_array())
      for (const auto& x : pkgs) path.packages.emplace_back(text_at(x, "name"), text_at(x, "version"));
    out.push_back(std::move(path));
  }
  return out;
}

}  // namespace gpucheck::model
