#include "commands/env.h"

#include <future>
#include <optional>

#include "knowledge/knowledge_base.h"
#include "report/env_report.h"

namespace gpucheck::commands {

model::Report env(const EnvRequest& request, model::Report base) {
  // The knowledge base loads while the inventory is collected, so env takes no longer for it.
  std::string kb_error;
  auto loading = std::async(std::launch::async, [&kb_error]() -> std::optional<knowledge::KnowledgeBase> {
    try {
      return knowledge::KnowledgeBase::load();
    } catch (const std::exception& e) {
      kb_error = e.what();
      return std::nullopt;
    }
  });
  inventory::Inventory inv = commands::load_inventory(request.source, request.collect);
  std::optional<knowledge::KnowledgeBase> kb = loading.get();
  if (!kb) base.notes.push_back("host compiler support policy not loaded: " + kb_error);
  model::Report rep = report::env_report_for(inv, kb ? &*kb : nullptr, std::move(base));
  // doctor is the command that exits 1 on a problem.
  rep.meta.exit.informational = true;
  return rep;
}

}  // namespace gpucheck::commands
