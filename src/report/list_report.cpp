#include "report/list_report.h"
#include "model/tool_details.h"

namespace gpucheck::report {

model::Report list_report(const std::vector<runner::ProbeSpec>& catalog, model::Report rep) {
  if (rep.meta.command.empty()) rep.meta.command = "list";
  auto& probes = rep.section("probes").findings;
  for (const auto& p : catalog) {
    Finding f;
    f.id = p.id;
    f.status = Status::kInfo;
    f.title = p.title;
    f.summary = p.description;
    f.details = model::to_json(model::ProbeListing{p.levels, p.tags, p.timeout_s, p.executable});
    probes.push_back(std::move(f));
  }
  return rep;
}

}  // namespace gpucheck::report
