#include "checks/planner/plan_finding.h"

#include "core/text.h"

namespace gpucheck::planner {

nlohmann::json result_details(const Result& r) {
  auto plans = nlohmann::json::array();
  int rank = 1;
  for (const auto& p : r.plans) {
    auto pkgs = nlohmann::json::array();
    for (const auto& x : p.packages) pkgs.push_back({{"name", x.name}, {"version", x.version}, {"build", x.build}});
    plans.push_back({{"rank", rank++},
                     {"torch",
                      {{"version", p.torch.version},
                       {"cuda", p.torch.cuda},
                       {"index_url", p.torch.index_url},
                       {"installed", p.torch.installed}}},
                     {"packages", pkgs},
                     {"wheel", p.wheel_version},
                     {"ninja", p.ninja_version},
                     {"constraints", constraints_text(p)},
                     {"notes", p.notes}});
  }
  auto conflicts = nlohmann::json::array();
  for (const auto& c : r.conflicts) conflicts.push_back({{"pins", c.pins}, {"reasons", c.reasons}});
  return {{"asked", r.asked}, {"plans", plans}, {"conflicts", conflicts}, {"notes", r.notes}};
}

std::vector<Fix> plan_fixes(const Result& r) {
  std::vector<Fix> out;
  int rank = 1;
  for (const auto& p : r.plans) out.push_back({rank++, p.summary, p.commands, p.cost});
  return out;
}

Finding conflict_finding(const Result& r) {
  Finding f;
  f.id = "plan.conflict";
  f.status = Status::kFail;
  const Conflict* c = r.conflicts.empty() ? nullptr : &r.conflicts.front();
  f.title = c ? "no install satisfies all of: " + join(c->pins, "; ") : "no known install satisfies " + join(r.asked, "; ");
  f.summary = c ? "relax one of these pins: each alone rules out every torch build the others allow"
                : "no torch build the knowledge base knows fits this machine and these pins";
  if (c)
    for (std::size_t i = 0; i < c->pins.size(); ++i) f.evidence.push_back({c->pins[i], c->reasons[i], "planner"});
  f.explanation = "The planner tried every torch build recorded in data/compat (PyPI's own and the PyTorch "
                  "index's) with every release of each package, against their published Requires-Dist and "
                  "Requires-Python, this machine's driver, GPUs, Python and glibc, and the build contracts.";
  f.details = result_details(r);
  return f;
}

}  // namespace gpucheck::planner
