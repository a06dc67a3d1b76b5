#include "checks/explain/knowledge_facts.h"

#include <cctype>
#include <memory>

#include "checks/doctor/torch_choice.h"
#include "checks/planner/requirements_file.h"
#include "checks/planner/resolver.h"
#include "knowledge/knowledge_base.h"
#include "core/errors.h"
#include "core/text.h"

namespace gpucheck::explain {
namespace {

// "sm_50", "compute_35", "lto_90", "8.6" -> "5.0", "3.5", "9.0", "8.6".
std::string capability(const std::string& arch) {
  auto us = arch.find('_');
  std::string digits = us == std::string::npos ? arch : arch.substr(us + 1);
  if (digits.find('.') != std::string::npos) return digits;
  while (!digits.empty() && !std::isdigit(static_cast<unsigned char>(digits.back()))) digits.pop_back();  // 90a
  if (digits.size() < 2) return "";
  return digits.substr(0, digits.size() - 1) + "." + digits.substr(digits.size() - 1);
}

/// The machine the plans are for: the inventory's (as doctor judges it), else nothing known.
struct Planning {
  std::shared_ptr<knowledge::KnowledgeBase> kb;
  planner::Machine machine;
};

/// The top plan's commands as one line a shell runs in order.
std::optional<std::string> plan_line(const Planning& p, const std::vector<std::string>& specs) {
  try {
    std::vector<planner::Ask> asks;
    for (const auto& s : specs)
      if (!trim(s).empty()) asks.push_back(planner::ask_from_spec(s, "the log"));
    planner::check_asks(*p.kb, asks);
    auto r = planner::resolve(*p.kb, p.machine, asks, 1);
    if (r.plans.empty()) return std::nullopt;
    return join(r.plans.front().commands, " && ");
  } catch (const InputError&) {
    return std::nullopt;  // a package or pin the knowledge base does not know: the next wording applies
  }
}

// The prebuilt-wheel row of an extension that the knowledge base recommends pinning.
const knowledge::ExtensionRelease* wheel_release(const knowledge::KnowledgeBase& kb, const std::string& package) {
  const auto* ext = kb.extension(package);
  if (!ext) return nullptr;
  const knowledge::ExtensionRelease* found = nullptr;
  for (const auto& r : ext->releases)
    if (r.distribution == "wheel" && !r.recommended.empty()) found = &r;
  return found;
}

std::optional<std::string> answer(const Planning& p, const std::string& fn, const std::vector<std::string>& args) {
  const knowledge::KnowledgeBase& kb = *p.kb;
  // kb_plan(requirement, torch_pin): what the log asked for ("bmtrain>=0.2.1" and "torch<2.0.0,>=1.10").
  if (fn == "kb_plan" && args.size() == 2) return plan_line(p, {args[0], "torch" + args[1]});
  // kb_plan_build(package, version[, torch_pin]): that release, torch first.
  if (fn == "kb_plan_build" && (args.size() == 2 || args.size() == 3))
    return plan_line(p, {args[0] + "==" + args[1], args.size() == 3 ? "torch" + args[2] : "torch"});
  if (args.size() != 1) return std::nullopt;
  const std::string& a = args[0];
  if (fn == "kb_torch_install") {  // the planner's torch for this CUDA: the same answer doctor gives
    auto plan = planner::torch_for_cuda(kb, p.machine, major_minor(a));
    return plan ? nonempty(join(plan->commands, " && ")) : std::nullopt;
  }
  if (fn == "kb_min_driver") {
    auto d = kb.driver_minimum(major_minor(a).empty() ? a : major_minor(a));
    return d ? nonempty(d->min_driver) : std::nullopt;
  }
  if (fn == "kb_max_gcc") {
    auto h = kb.host_compilers(major_minor(a));
    return h && h->gcc_max > 0 ? std::optional<std::string>(std::to_string(h->gcc_max)) : std::nullopt;
  }
  if (fn == "kb_last_cuda_for_arch") {
    auto info = kb.arch(capability(a));
    return info ? nonempty(info->last_cuda) : std::nullopt;
  }
  if (fn == "kb_wheel_release") {
    const auto* r = wheel_release(kb, a);
    return r ? nonempty(r->recommended) : std::nullopt;
  }
  if (fn == "kb_wheel_pythons") {
    const auto* r = wheel_release(kb, a);
    return r ? nonempty(join(r->wheel_pythons, ", ")) : std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

bool knowledge_fact_needs_machine(const std::string& fn) {
  return fn == "kb_plan" || fn == "kb_plan_build" || fn == "kb_torch_install";
}

KnowledgeCall load_knowledge_facts(std::string& note, const std::string& dir, const inventory::Inventory* inv) {
  auto p = std::make_shared<Planning>();
  try {
    p->kb = std::make_shared<knowledge::KnowledgeBase>(knowledge::KnowledgeBase::load(dir));
    p->kb->pypi();  // the planner's facts: a broken pypi.json is said here, once
  } catch (const InputError& e) {
    note = std::string("compat knowledge base not loaded (") + e.what() + "): fixes are given without version facts";
    return {};
  }
  note.clear();
  if (inv) {
    doctor::DoctorContext ctx(*inv, *p->kb);
    p->machine = doctor::planner_machine(ctx);
  } else {
    p->machine.python = "python3";
    p->machine.toolkit_known = false;
  }
  return [p](const std::string& fn, const std::vector<std::string>& args) { return answer(*p, fn, args); };
}

}  // namespace gpucheck::explain
