#pragma once
// Doctor in tests, the way the CLI runs it: report::doctor_report over an inventory in hand, and the
// parts of its Report the tests read (the "findings" section; the "plan" section's plan and findings).
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "checks/doctor/install_plan.h"
#include "report/doctor_report.h"

namespace gpucheck::testing {

inline model::Report run_doctor(const inventory::Inventory& inv, const knowledge::KnowledgeBase& kb,
                                 const std::optional<std::string>& request = std::nullopt) {
  model::Report base;
  base.meta.command = "doctor";
  return report::doctor_report(std::move(base), inv, kb, request, "test");
}

/// The rules' findings (section "findings"), errors first.
inline const std::vector<Finding>& doctor_findings(const model::Report& r) {
  static const std::vector<Finding> none;
  const model::Section* s = r.find_section("findings");
  return s ? s->findings : none;
}

/// The plan itself (first in section "plan"); nullptr without --for.
inline const Finding* install_plan(const model::Report& r) {
  const model::Section* s = r.find_section("plan");
  return s && !s->findings.empty() ? &s->findings.front() : nullptr;
}

/// The plan's machine-readable verdict (details.verdict).
inline doctor::PlanVerdict plan_verdict(const Finding& plan) {
  auto v = doctor::parse_plan_verdict(plan.details.at("verdict").get<std::string>());
  if (!v) throw std::runtime_error("plan without a known verdict: " + plan.details.dump());
  return *v;
}

/// The plan's own findings: why the plain `pip install` would fail or misbehave.
inline std::vector<Finding> plan_findings(const model::Report& r) {
  const model::Section* s = r.find_section("plan");
  if (!s || s->findings.empty()) return {};
  return {s->findings.begin() + 1, s->findings.end()};
}

}  // namespace gpucheck::testing
