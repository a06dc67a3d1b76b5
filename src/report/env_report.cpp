#include "report/env_report.h"

#include "checks/compiler/host_compiler.h"

namespace gpucheck::report {

model::Report env_report_for(const inventory::Inventory& inv, const knowledge::KnowledgeBase* kb, model::Report rep) {
  if (rep.meta.command.empty()) rep.meta.command = "env";
  rep.section("host_compiler").findings = compiler::judge_host_compilers(inv, kb);
  rep.inventory = inv;
  return rep;
}

}  // namespace gpucheck::report
