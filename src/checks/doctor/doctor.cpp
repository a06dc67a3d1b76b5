#include "checks/doctor/doctor.h"

#include <algorithm>

#include "checks/doctor/doctor_context.h"
#include "checks/doctor/rules.h"

namespace gpucheck::compat {
namespace {

int count(const std::vector<Finding>& v, Severity s) {
  return static_cast<int>(std::count_if(v.begin(), v.end(), [s](const Finding& f) { return f.severity == s; }));
}

}  // namespace

int DoctorReport::errors() const {
  return count(findings, Severity::kError) + (plan ? count(plan->findings, Severity::kError) : 0);
}

int DoctorReport::warnings() const {
  return count(findings, Severity::kWarn) + (plan ? count(plan->findings, Severity::kWarn) : 0);
}

int DoctorReport::exit_code() const { return errors() > 0 ? 1 : 0; }

DoctorReport run_doctor(const inventory::Inventory& inv, const KnowledgeBase& kb,
                        const std::optional<std::string>& request) {
  DoctorContext ctx(inv, kb);
  DoctorReport rep;
  rep.knowledge_base = kb.directory();
  rep.notes = inv.notes;
  for (const auto& t : inv.toolkits)
    rep.toolkits.push_back(major_minor(t.version) + " at " + t.root + (t.nvcc.empty() ? " (no nvcc)" : ""));
  // Parse --for before running rules so bad input fails fast with exit 2.
  std::optional<PackageRequest> req;
  if (request) req = parse_package_request(*request, kb);
  for (auto rule : {check_toolkit_vs_torch, check_driver, check_host_compiler, check_gpu_arch, check_library_shadowing,
                    check_installed_extensions, check_torch_install})
    rule(ctx, rep.findings);
  std::stable_sort(rep.findings.begin(), rep.findings.end(),
                   [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
  if (req) rep.plan = plan_install(ctx, *req);
  return rep;
}

nlohmann::json to_json(const DoctorReport& r) {
  nlohmann::json j = {{"schema_version", "1"},
                      {"inventory", r.inventory_source},
                      {"knowledge_base", r.knowledge_base},
                      {"errors", r.errors()},
                      {"warnings", r.warnings()},
                      {"exit_code", r.exit_code()},
                      {"toolkits", r.toolkits},
                      {"notes", r.notes},
                      {"findings", r.findings}};
  j["plan"] = r.plan ? nlohmann::json(*r.plan) : nlohmann::json(nullptr);
  return j;
}

}  // namespace gpucheck::compat
