#include "checks/doctor/torch_choice.h"

#include <algorithm>
#include <cctype>

#include "checks/planner/plan_commands.h"
#include "core/text.h"
#include "knowledge/pep440.h"

namespace gpucheck::doctor {

planner::Machine planner_machine(const DoctorContext& ctx) {
  const auto* tk = ctx.build.toolkit;
  return planner::machine_from_inventory(ctx.inv, ctx.python, tk ? tk->version : "", tk ? tk->root : "");
}

std::optional<planner::Plan> torch_for_cuda(const DoctorContext& ctx, const std::string& cuda,
                                            const std::string& max_driver_cuda) {
  return planner::torch_for_cuda(ctx.kb, planner_machine(ctx), cuda, max_driver_cuda);
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

const char* const kPatchOnlyPinExplanation =
    " Only the patch release differs: torch's patch releases are bug fixes of one release branch, and a build "
    "against X.Y.0 normally loads on X.Y.Z (xformers 0.0.27.post2, made for torch 2.4.0, is reported working "
    "with 2.4.1), so this is pip's conflict and a risk, not a failure seen; its import or xformers.info says "
    "whether its operators load.";
const char* const kPatchOnlyPinSource = "https://github.com/facebookresearch/xformers/issues/1096";

bool torch_pin_differs_in_patch_only(const std::string& specifiers, const std::string& installed_torch) {
  if (!starts_with(specifiers, "==") || specifiers.find(',') != std::string::npos) return false;
  auto release = [](std::string v) {
    v = v.substr(0, v.find('+'));
    auto parts = split(v, '.');
    for (const auto& p : parts)
      if (p.empty() || !std::all_of(p.begin(), p.end(), [](unsigned char c) { return std::isdigit(c); })) return std::vector<std::string>{};
    return parts;
  };
  auto pin = release(specifiers.substr(2)), have = release(installed_torch);
  return pin.size() == 3 && have.size() == 3 && pin[0] == have[0] && pin[1] == have[1] && pin[2] != have[2];
}

}  // namespace gpucheck::doctor
