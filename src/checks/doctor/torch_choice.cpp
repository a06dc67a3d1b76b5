#include "checks/doctor/torch_choice.h"

#include <algorithm>

#include "checks/planner/plan_commands.h"
#include "core/shell_quote.h"
#include "core/text.h"
#include "knowledge/pep440.h"
#include "knowledge/version.h"

namespace gpucheck::doctor {

planner::Machine planner_machine(const DoctorContext& ctx) {
  const auto* tk = ctx.build.toolkit;
  return planner::machine_from_inventory(ctx.inv, ctx.python, tk ? tk->version : "", tk ? tk->root : "");
}

std::vector<std::string> pip_install(const DoctorContext& ctx, const std::string& args) {
  const auto& py = *ctx.python;
  const std::string python = shell_quote(py.executable.empty() ? py.interpreter : py.executable);
  if (!planner_machine(ctx).externally_managed) return {python + " -m pip install " + args};
  return {python + " -m venv --system-site-packages .venv", ".venv/bin/python -m pip install " + args};
}

std::optional<planner::Plan> torch_for_cuda(const DoctorContext& ctx, const std::string& cuda,
                                            const std::string& max_driver_cuda) {
  return planner::torch_for_cuda(ctx.kb, planner_machine(ctx), cuda, max_driver_cuda);
}

std::optional<planner::Plan> torch_for_cuda_in_release(const DoctorContext& ctx, const std::string& cuda,
                                                       const std::string& max_driver_cuda, const std::string& installed_torch) {
  // "2.0.1+cpu" pins 2.0.1; a series stated alone ("2.0") any patch of it.
  const std::string public_version = installed_torch.substr(0, installed_torch.find('+'));
  const auto parts = split(public_version, '.');
  if (parts.size() < 2 || !knowledge::Version::parse(public_version)) return std::nullopt;
  const std::string spec = parts.size() == 2 ? "torch==" + public_version + ".*" : "torch==" + public_version;
  try {
    return planner::torch_for_cuda(ctx.kb, planner_machine(ctx), cuda, max_driver_cuda,
                                   {{knowledge::pep440::Requirement::parse(spec), "the installed torch's release", true}});
  } catch (const std::exception&) {
    return std::nullopt;  // a version pip's grammar does not take
  }
}

// See torch_choice.h. Shared by the ext.* rebuild fixes and python.requirement_conflict on torch.
Fix plan_keeping_torch(const DoctorContext& ctx, const std::string& package, const std::string& version, int rank) {
  Fix f;
  f.rank = rank;
  const auto& py = *ctx.python;
  const std::string torch_public = py.torch_version.substr(0, py.torch_version.find('+'));
  if (!py.torch_import_error.empty()) {
    f.summary = "Make torch import first (a build against it imports it): " + py.torch_import_error;
    return f;
  }
  planner::Machine m = planner_machine(ctx);
  std::vector<planner::Ask> asks;
  try {
    asks.push_back({knowledge::pep440::Requirement::parse(version.empty() ? package : package + "==" + version), "installed", false});
    asks.push_back({knowledge::pep440::Requirement::parse("torch==" + torch_public), "installed torch", true});
  } catch (const std::exception&) {
    f.summary = "Reinstall " + package + " against torch " + py.torch_version + " (its version does not parse)";
    return f;
  }
  planner::Result r;
  try {
    r = planner::resolve(ctx.kb, m, asks, 3);
    // Only a plan that keeps this very torch build: torch==X also admits an index's other CUDA build of X.
    r.plans.erase(std::remove_if(r.plans.begin(), r.plans.end(), [](const planner::Plan& p) { return !p.torch.installed; }),
                  r.plans.end());
  } catch (const std::exception& e) {
    f.summary = "No plan for " + package + " here: " + e.what();
    return f;
  }
  if (r.plans.empty()) {
    std::vector<std::string> why;
    for (const auto& c : r.conflicts)  // the reasons against the installed torch: the others are not asked
      for (const auto& w : c.reasons)
        if (w.find("(installed") != std::string::npos) why.push_back(w);
    f.summary = "No build of " + package + (version.empty() ? "" : " " + version) + " fits torch " +
                py.torch_version + " here: " + (why.empty() ? "every plan replaces this torch build" : join(why, "; "));
    return f;
  }
  planner::Plan plan = r.plans.front();
  auto installed = py.packages.find(package);
  bool rebuild = false;
  for (auto& p : plan.packages)
    if (p.name == package && installed != py.packages.end() &&
        installed->second.substr(0, installed->second.find('+')) == p.version)
      p.reinstall = rebuild = true;
  planner::render_plan(plan, m);
  f.summary = (rebuild ? "Rebuild " + package + " against the installed torch " : "Install the " + package + " release made for the installed torch ") +
              py.torch_version + ": " + plan.summary;
  f.commands = plan.commands;
  f.cost = plan.cost;
  return f;
}

bool torch_pin_differs_in_patch_only(const std::string& specifiers, const std::string& installed_torch) {
  if (!starts_with(specifiers, "==") || specifiers.find(',') != std::string::npos) return false;
  // Plain X.Y.Z releases only (no pre/post/dev suffix, no wildcard); the local tag (+cu121) is a build's.
  auto pin = knowledge::Version::parse(specifiers.substr(2)), have = knowledge::Version::parse(installed_torch);
  return pin && have && pin->parts.size() == 3 && have->parts.size() == 3 && pin->suffix.empty() &&
         have->suffix.empty() && pin->major() == have->major() && pin->minor() == have->minor() &&
         pin->part(2) != have->part(2);
}

void mark_patch_only_pin(Finding& f) {
  f.status = Status::kWarn;
  f.explanation +=
      " Only the patch release differs: torch's patch releases are bug fixes of one release branch, and a build "
      "against X.Y.0 normally loads on X.Y.Z (xformers 0.0.27.post2, made for torch 2.4.0, is reported working "
      "with 2.4.1), so this is pip's conflict and a risk, not a failure seen; its import or xformers.info says "
      "whether its operators load.";
  f.references.push_back("https://github.com/facebookresearch/xformers/issues/1096");
}

}  // namespace gpucheck::doctor
