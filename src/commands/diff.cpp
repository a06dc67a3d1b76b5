#include "commands/diff.h"

#include "inventory/model.h"
#include "knowledge/knowledge_base.h"
#include "report/diff_report.h"

namespace gpucheck::commands {

model::Report diff(const std::string& a, const std::string& b, model::Report base) {
  const inventory::Inventory ia = inventory::load_inventory(a);
  const inventory::Inventory ib = inventory::load_inventory(b);
  const knowledge::KnowledgeBase kb = knowledge::KnowledgeBase::load();
  return report::diff_report(a, ia, b, ib, kb, std::move(base));
}

}  // namespace gpucheck::commands
