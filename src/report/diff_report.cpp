#include "report/diff_report.h"

#include "checks/diff/inventory_diff.h"
#include "inventory/model.h"

namespace gpucheck::report {

Report diff_report(const std::string& a, const std::string& b, Report rep) {
  const inventory::Inventory ia = inventory::load_inventory(a);
  const inventory::Inventory ib = inventory::load_inventory(b);
  auto kb = compat::KnowledgeBase::load();
  Section& s = rep.section("differences");
  s.findings = diff::diff_inventories(ia, ib, kb);
  int matter = 0;
  for (const auto& f : s.findings) matter += f.status == Status::kFail;
  auto side = [](const std::string& file, const inventory::Inventory& inv) {
    return nlohmann::json{{"file", file}, {"hostname", inv.hostname}, {"collected_at", inv.collected_at}};
  };
  rep.details = {{"a", side(a, ia)}, {"b", side(b, ib)}, {"differences", s.findings.size()}, {"that_matter", matter}};
  return rep;
}

}  // namespace gpucheck::report
