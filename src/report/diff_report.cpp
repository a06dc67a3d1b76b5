#include "report/diff_report.h"

#include "checks/diff/inventory_diff.h"
#include "inventory/model.h"
#include "model/diff_details.h"

namespace gpucheck::report {

model::Report diff_report(const std::string& a, const inventory::Inventory& ia, const std::string& b,
                   const inventory::Inventory& ib, const knowledge::KnowledgeBase& kb, model::Report rep) {
  model::Section& s = rep.section("differences");
  s.findings = diff::diff_inventories(ia, ib, kb);
  model::DiffDetails d;
  d.a = {true, a, ia.hostname, ia.collected_at};
  d.b = {true, b, ib.hostname, ib.collected_at};
  d.differences = static_cast<int>(s.findings.size());
  for (const auto& f : s.findings) d.that_matter += f.status == Status::kFail;
  rep.details = model::to_json(d);
  return rep;
}

}  // namespace gpucheck::report
