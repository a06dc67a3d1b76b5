#include "report/diff_report.h"

#include "checks/diff/inventory_diff.h"
#include "inventory/model.h"
#include "model/diff_details.h"

namespace gpucheck::report {

Report diff_report(const std::string& a, const std::string& b, Report rep) {
  const inventory::Inventory ia = inventory::load_inventory(a);
  const inventory::Inventory ib = inventory::load_inventory(b);
  auto kb = compat::KnowledgeBase::load();
  Section& s = rep.section("differences");
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
