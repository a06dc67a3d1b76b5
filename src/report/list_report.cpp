#include "report/list_report.h"

namespace gpucheck::report {

Report list_report(const std::vector<runner::ProbeSpec>& catalog, Report rep) {
  if (rep.meta.command.empty()) rep.meta.command = "list";
  auto& probes = rep.section("probes").findings;
  for (const auto& p : catalog) {
    Finding f;
    f.id = p.id;
    f.status = Status::kInfo;
    f.title = p.title;
    f.summary = p.description;
    f.details = {{"levels", p.levels}, {"timeout_s", p.timeout_s}, {"tags", p.tags}, {"executable", p.executable}};
    probes.push_back(std::move(f));
  }
  return rep;
}

}  // namespace gpucheck::report
