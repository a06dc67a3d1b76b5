#include "report/env_report.h"

#include "checks/compiler/host_compiler.h"

namespace gpucheck::report {

Report env_report_for(const inventory::Inventory& inv, const compat::KnowledgeBase* kb, Report rep) {
  if (rep.meta.command.empty()) rep.meta.command = "env";
  rep.section("host_compiler").findings = compiler::judge_host_compilers(inv, kb);
  rep.inventory = inv;
  return rep;
}

Report env_report(const EnvRequest& req, Report rep) {
  inventory::Inventory inv = load_inventory(req.source, req.collect);
  std::optional<compat::KnowledgeBase> kb;
  try {
    kb = compat::KnowledgeBase::load();
  } catch (const std::exception& e) {
    rep.notes.push_back(std::string("host compiler support policy not loaded: ") + e.what());
  }
  return env_report_for(inv, kb ? &*kb : nullptr, std::move(rep));
}

}  // namespace gpucheck::report
