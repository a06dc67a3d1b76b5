#include "report/doctor_report.h"

#include <algorithm>

#include "core/files.h"
#include "core/paths.h"
#include "inventory/collect_env_text.h"
#include "inventory/pasted_report.h"

#include "checks/doctor/doctor.h"
#include "checks/doctor/install_plan.h"
#include "checks/planner/plan_finding.h"
#include "checks/planner/pin_guard.h"
#include "checks/planner/requirements_file.h"
#include "core/errors.h"
#include "core/text.h"
#include "core/verdict.h"
#include "knowledge/pep440.h"
#include "model/doctor_details.h"

namespace gpucheck::report {
namespace {

// The plan's own status: it never adds a failure the plan's findings do not already carry, so the exit
// code stays "1 iff any error finding" (kNoPath and kInstallsByPath both come with an error finding).
Status plan_status(doctor::PlanVerdict v) {
  switch (v) {
    case doctor::PlanVerdict::kInstalls: return Status::kPass;
    case doctor::PlanVerdict::kInstallsByPath: return Status::kWarn;
    case doctor::PlanVerdict::kNoPath: return Status::kFail;
  }
  return Status::kFail;
}

/// The exact version of a single `==` clause ("0.2.2" of "bmtrain==0.2.2"); "" otherwise.
std::string exact_pin(const knowledge::pep440::Requirement& r) {
  if (r.specifiers.specs.size() != 1 || r.specifiers.specs[0].op != "==") return "";
  return r.specifiers.specs[0].wildcard ? "" : r.specifiers.specs[0].version;
}

std::vector<planner::Ask> asks_of(const PlanRequest& req, std::vector<std::string>& notes) {
  std::vector<planner::Ask> asks;
  for (const auto& s : req.specs) asks.push_back(planner::ask_from_spec(s, "--for"));
  for (const auto& f : req.requirements) {
    auto more = planner::read_requirements_file(f, false, notes);
    asks.insert(asks.end(), more.begin(), more.end());
  }
  for (const auto& f : req.constraints) {
    auto more = planner::read_requirements_file(f, true, notes);
    asks.insert(asks.end(), more.begin(), more.end());
  }
  return asks;
}

std::vector<Finding> plan_section(const doctor::DoctorContext& ctx, const std::vector<planner::Ask>& asks,
                                  std::vector<std::string> notes, bool& source_build) {
  std::vector<const planner::Ask*> wanted;
  for (const auto& a : asks)
    if (!a.constraint) wanted.push_back(&a);
  // Why the plain `pip install` of each asked extension fails or misbehaves here (install.* findings).
  std::vector<Finding> install;
  std::string build;
  for (const auto* a : wanted) {
    const auto* ext = ctx.kb.extension(a->req.name);
    if (!ext) continue;
    doctor::PackageRequest pr{ext->name, exact_pin(a->req)};
    if (!pr.version.empty() && !ext->release_for(pr.version)) continue;
    doctor::InstallPlan p = doctor::plan_install(ctx, pr);
    if (wanted.size() == 1) build = p.build;
    source_build |= starts_with(p.build, "source build");
    for (auto& f : p.findings) install.push_back(std::move(f));
  }
  const auto* tk = ctx.build.toolkit;
  planner::Machine m = planner::machine_from_inventory(ctx.inv, ctx.python, tk ? tk->version : "", tk ? tk->root : "");
  planner::Result r = planner::resolve(ctx.kb, m, asks);
  r.notes.insert(r.notes.begin(), notes.begin(), notes.end());

  bool fails = std::any_of(install.begin(), install.end(), [](const Finding& f) { return f.status == Status::kFail; });
  doctor::PlanVerdict v = r.plans.empty() ? doctor::PlanVerdict::kNoPath
                          : fails         ? doctor::PlanVerdict::kInstallsByPath
                                          : doctor::PlanVerdict::kInstalls;
  Finding f;
  std::vector<std::string> specs;
  for (const auto* a : wanted) specs.push_back(a->req.str());
  f.id = wanted.size() == 1 ? "plan." + wanted[0]->req.name : "plan.requirements";
  f.status = plan_status(v);
  f.title = "install " + (specs.empty() ? std::string("(constraints only)") : join(specs, " ")) +
            (build.empty() ? "" : " (" + build + ")");
  f.summary = doctor::verdict_text(v);
  f.fixes = planner::plan_fixes(r);
  nlohmann::json prebuilt_plan;  // the prebuilt wheel's plan, first in details.plans as in the fixes
  // An existing prebuilt wheel before a build, as explain ranks them (bmtrain 0.2.2 compiles for 20 minutes;
  // 0.2.3.post2 is a wheel): its plan first, the asked release's plans after it.
  if (wanted.size() == 1)
    if (const auto* ext = ctx.kb.extension(wanted[0]->req.name); ext && !r.plans.empty()) {
      const std::string wheel = doctor::prebuilt_instead(ctx, *ext, exact_pin(wanted[0]->req));
      std::vector<planner::Ask> instead;
      if (!wheel.empty())
        for (const auto& a : asks)
          instead.push_back(&a == wanted[0] ? planner::ask_from_spec(ext->name + "==" + wheel, "prebuilt wheel") : a);
      planner::Result w = wheel.empty() ? planner::Result{} : planner::resolve(ctx.kb, m, instead, 1);
      if (!w.plans.empty()) {
        const auto& p = w.plans.front();
        f.fixes.insert(f.fixes.begin(), Fix{1, "A prebuilt wheel instead of a build: " + ext->name + " " + wheel +
                                                   " (nothing compiled; " + wanted[0]->req.str() + " compiles here). " +
                                                   p.summary,
                                               p.commands, p.cost});
        for (std::size_t i = 0; i < f.fixes.size(); ++i) f.fixes[i].rank = static_cast<int>(i) + 1;
        const nlohmann::json wd = planner::result_details(w);
        if (wd.contains("plans") && wd["plans"].is_array() && !wd["plans"].empty()) prebuilt_plan = wd["plans"][0];
      }
    }
  f.details = planner::result_details(r);
  if (!prebuilt_plan.is_null() && f.details.contains("plans") && f.details["plans"].is_array()) {
    auto& plans = f.details["plans"];
    plans.insert(plans.begin(), prebuilt_plan);
    for (std::size_t i = 0; i < plans.size(); ++i)
      if (plans[i].is_object()) plans[i]["rank"] = i + 1;
  }
  f.details["package"] = wanted.size() == 1 ? wanted[0]->req.name : "";
  f.details["version"] = wanted.size() == 1 ? exact_pin(wanted[0]->req) : "";
  f.details["build"] = build;
  f.details["verdict"] = doctor::to_string(v);
  for (const auto& n : r.notes) f.evidence.push_back({"note", n, "planner"});
  std::vector<Finding> out{f};
  if (r.plans.empty()) out.push_back(planner::conflict_finding(r));
  out.insert(out.end(), install.begin(), install.end());
  return out;
}

// The environment every rule judged, so a reader knows which one the verdicts are about.
std::optional<model::JudgedPython> judged_python(const doctor::DoctorContext& ctx) {
  if (!ctx.python) return std::nullopt;
  const auto& p = *ctx.python;
  return model::JudgedPython{p.interpreter, p.executable, p.version, p.prefix, p.kind, ctx.python_rule,
                             p.torch_installed ? p.torch_version : "", p.torch_installed ? p.torch_cuda : ""};
}

}  // namespace

model::Report doctor_report(model::Report base, const inventory::Inventory& inv, const knowledge::KnowledgeBase& kb,
                     const PlanRequest& request, const std::string& inventory_source) {
  // Read and check the asks before running rules so bad input fails fast with exit 2.
  std::vector<std::string> notes;
  std::vector<planner::Ask> asks = asks_of(request, notes);
  if (!request.empty() && std::none_of(asks.begin(), asks.end(), [](const planner::Ask& a) { return !a.constraint; }))
    throw InputError("nothing to plan: give --for SPEC or -r FILE (a constraints file only limits them)");
  planner::check_asks(kb, asks);
  doctor::DoctorContext ctx(inv, kb);
  model::Report r = std::move(base);
  r.section("findings").findings = doctor::diagnose(ctx);
  bool source_build = false;
  if (!asks.empty()) r.section("plan").findings = plan_section(ctx, asks, notes, source_build);
  // -r/--for pins bind every fix printed (torch<2.0 pinned: no fix installs torch 2.4.1). The plan itself is
  // resolved under them already (its prebuilt-wheel path swaps only the asked package's own pin).
  planner::bind_fixes_to_asks(r.section("findings").findings, asks);
  if (const model::Section* found = r.find_section("plan"); found && found->findings.size() > 1) {
    auto& plan = r.section("plan").findings;
    std::vector<Finding> rest(plan.begin() + 1, plan.end());
    planner::bind_fixes_to_asks(rest, asks);
    plan.erase(plan.begin() + 1, plan.end());
    plan.insert(plan.end(), rest.begin(), rest.end());
  }
  // What the user asked for decides whether a build risk is an error (core/verdict.h); a pasted build that a
  // check stopped was that goal.
  const bool pasted_build = ctx.python && !ctx.python->build_refusal.empty();
  if (source_build || pasted_build) {
    auto& found = r.section("findings").findings;
    apply_goal(found, Goal::kSourceBuild,
               source_build ? "This command's goal is a source build, which this breaks. "
                            : "The pasted source build stopped on this (" + ctx.python->build_refusal + "). ");
    std::stable_sort(found.begin(), found.end(),
                     [](const Finding& a, const Finding& b) { return severity(a.status) > severity(b.status); });
  }
  r.inventory = inv;
  r.notes = inv.notes;
  r.details = model::to_json(model::DoctorDetails{inventory_source, kb.directory(), judged_python(ctx)});
  return r;
}

model::Report doctor_report(model::Report base, const inventory::Inventory& inv, const knowledge::KnowledgeBase& kb,
                     const std::optional<std::string>& request, const std::string& inventory_source) {
  PlanRequest req;
  if (request) req.specs.push_back(*request);
  return doctor_report(std::move(base), inv, kb, req, inventory_source);
}

namespace {

// A pasted report has no paths: a verdict about a path, or a fix that would quote one, cannot be given
// (it would print a command that cannot work), so those are left out and a note says how many.
void drop_path_steps(model::Report& r) {
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

// A paste that does not state the driver, or whether nvcc exists, says nothing about their absence: the
// verdicts that rest on it (driver.missing, cuda.no_toolkit) are left out, and a note says so.
void drop_unstated(model::Report& r, const inventory::Inventory& inv) {
  auto noted = [&](const char* n) { return std::find(inv.notes.begin(), inv.notes.end(), n) != inv.notes.end(); };
  std::vector<std::string> ids;
  if (noted(inventory::kPasteLacksDriver)) ids.push_back("driver.missing");
  if (noted(inventory::kPasteLacksToolkit)) ids.push_back("cuda.no_toolkit");
  std::size_t dropped = 0;
  for (auto& s : r.sections) {
    auto before = s.findings.size();
    s.findings.erase(std::remove_if(s.findings.begin(), s.findings.end(),
                                    [&](const Finding& f) { return std::find(ids.begin(), ids.end(), f.id) != ids.end(); }),
                     s.findings.end());
    dropped += before - s.findings.size();
  }
  if (dropped > 0)
    r.notes.push_back(std::to_string(dropped) + " finding(s) left out: they rest on the absence of a driver or a toolkit, "
                      "which the pasted report does not state");
}

}  // namespace

model::Report doctor_report_pasted(model::Report base, const inventory::Inventory& inv, const knowledge::KnowledgeBase& kb,
                            const PlanRequest& request, const std::string& inventory_source) {
  model::Report r = doctor_report(std::move(base), inv, kb, request, inventory_source);
  drop_path_steps(r);
  drop_unstated(r, inv);
  return r;
}

}  // namespace gpucheck::report
