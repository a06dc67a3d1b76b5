#include "report/env_report.h"

#include <future>
#include <optional>

#include "checks/compiler/host_compiler.h"

namespace gpucheck::report {

Report env_report_for(const inventory::Inventory& inv, const compat::KnowledgeBase* kb, Report rep) {
  if (rep.meta.command.empty()) rep.meta.command = "env";
  rep.section("host_compiler").findings = compiler::judge_host_compilers(inv, kb);
  rep.inventory = inv;
  return rep;
}

Report env_report(const EnvRequest& req, Report rep) {
  // The knowledge base loads while the inventory is collected, so env takes no longer for it.
  std::string kb_error;
  auto loading = std::async(std::launch::async, [&kb_error]() -> std::optional<compat::KnowledgeBase> {
    try {
      return compat::KnowledgeBase::load();
    } catch (const std::exception& e) {
      kb_error = e.what();
      return std::nullopt;
    }
  });
  inventory::Inventory inv = load_inventory(req.source, req.collect);
  std::optional<compat::KnowledgeBase> kb = loading.get();
  if (!kb) rep.notes.push_back("host compiler support policy not loaded: " + kb_error);
  return env_report_for(inv, kb ? &*kb : nullptr, std::move(rep));
}

}  // namespace gpucheck::report
