#include "report/doctor_report.h"

#include "core/errors.h"
#include "core/files.h"
#include "inventory/collect_env_text.h"

#include "checks/doctor/doctor.h"
#include "checks/doctor/install_plan.h"

namespace gpucheck::report {
namespace {

// The plan's own status: it never adds a failure the plan's findings do not already carry, so the exit
// code stays "1 iff any error finding" (kNoPath and kInstallsByPath both come with an error finding).
Status plan_status(compat::PlanVerdict v) {
  switch (v) {
    case compat::PlanVerdict::kInstalls: return Status::kPass;
    case compat::PlanVerdict::kInstallsByPath: return Status::kWarn;
    case compat::PlanVerdict::kNoPath: return Status::kFail;
  }
  return Status::kFail;
}

Finding plan_finding(const compat::InstallPlan& p) {
  Finding f;
  f.id = "plan." + p.package;
  f.status = plan_status(p.verdict);
  f.title = "install " + p.package + (p.version.empty() ? "" : "==" + p.version) + " (" + p.build + ")";
  f.summary = compat::verdict_text(p.verdict);
  f.fixes = p.paths;
  f.details = {{"package", p.package},
               {"version", p.version},
               {"build", p.build},
               {"verdict", compat::to_string(p.verdict)}};
  return f;
}

// The environment every rule judged, so a reader knows which one the verdicts are about.
nlohmann::json judged_python_json(const compat::DoctorContext& ctx) {
  if (!ctx.python) return nullptr;
  const auto& p = *ctx.python;
  return {{"interpreter", p.interpreter}, {"executable", p.executable}, {"version", p.version},
          {"prefix", p.prefix},           {"kind", p.kind},             {"chosen_by", ctx.python_rule},
          {"torch", p.torch_installed ? p.torch_version : ""},
          {"torch_cuda", p.torch_installed ? p.torch_cuda : ""}};
}

}  // namespace

Report doctor_report(Report base, const inventory::Inventory& inv, const compat::KnowledgeBase& kb,
                     const std::optional<std::string>& request, const std::string& inventory_source) {
  // Parse --for before running rules so bad input fails fast with exit 2.
  std::optional<compat::PackageRequest> req;
  if (request) req = compat::parse_package_request(*request, kb);
  compat::DoctorContext ctx(inv, kb);
  Report r = std::move(base);
  r.section("findings").findings = compat::diagnose(ctx);
  if (req) {
    compat::InstallPlan plan = compat::plan_install(ctx, *req);
    Section& s = r.section("plan");
    s.findings.push_back(plan_finding(plan));
    s.findings.insert(s.findings.end(), plan.findings.begin(), plan.findings.end());
  }
  r.inventory = inv;
  r.notes = inv.notes;
  r.details = {{"inventory_source", inventory_source}, {"knowledge_base", kb.directory()},
               {"python", judged_python_json(ctx)}};
  return r;
}

Report doctor_report(Report base, const InventorySource& source, const std::optional<std::string>& request) {
  auto kb = compat::KnowledgeBase::load();
  inventory::Inventory inv = load_inventory(source);
  return doctor_report(std::move(base), inv, kb, request, source.describe());
}

namespace {

// A pasted report has no paths: a verdict about a path, or a fix that would quote one, cannot be given
// (it would print a command that cannot work), so those are left out and a note says how many.
void drop_path_steps(Report& r) {
  const std::string unknown_root = inventory::kCollectEnvToolkitRoot;
  std::size_t dropped = 0;
  for (auto& s : r.sections) {
    std::vector<Finding> kept;
    for (auto& f : s.findings) {
      if (f.title.find(unknown_root) != std::string::npos) {
        ++dropped;
        continue;
      }
      std::vector<Fix> fixes;
      for (auto& fx : f.fixes) {
        bool quotes = fx.summary.find(unknown_root) != std::string::npos;
        for (const auto& c : fx.commands) quotes |= c.find(unknown_root) != std::string::npos;
        if (quotes) ++dropped;
        else fixes.push_back(fx);
      }
      for (std::size_t k = 0; k < fixes.size(); ++k) fixes[k].rank = static_cast<int>(k + 1);
      f.fixes = std::move(fixes);
      kept.push_back(std::move(f));
    }
    s.findings = std::move(kept);
  }
  if (dropped > 0)
    r.notes.push_back(std::to_string(dropped) + " finding(s) or fix step(s) about toolkit paths left out: the report has no paths");
}

}  // namespace

Report doctor_report_from_text(Report base, const std::string& path, const std::optional<std::string>& request) {
  std::string text = read_file(path);  // type checks and size limit: a FIFO or /dev/zero is bad input
  auto inv = inventory::inventory_from_collect_env(text, path);
  if (!inv)
    throw InputError(path + ": not an environment report (expected the output of `python -m torch.utils.collect_env` "
                            "or vLLM's collect_env.py)");
  return doctor_report_pasted(std::move(base), *inv, request, "--from-text " + path);
}

Report doctor_report_pasted(Report base, const inventory::Inventory& inv, const std::optional<std::string>& request,
                            const std::string& inventory_source) {
  auto kb = compat::KnowledgeBase::load();
  Report r = doctor_report(std::move(base), inv, kb, request, inventory_source);
  drop_path_steps(r);
  return r;
}

}  // namespace gpucheck::report
