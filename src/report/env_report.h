#pragma once
// `gpucheck env`: the inventory, collected or loaded, and the verdicts the checks draw from it alone (the
// host compiler nvcc would use, per toolkit).
#include "knowledge/knowledge_base.h"
#include "report/inventory_source.h"
#include "model/report.h"

namespace gpucheck::report {

struct EnvRequest {
  InventorySource source;             // --from FILE (an inventory or a report), --root DIR, --python PATH
  inventory::CollectOptions collect;  // python probing, version cache, timings
};

/// Report.inventory = the inventory; section "host_compiler" = compiler::judge_host_compilers (one finding
/// per toolkit, details.toolkit naming it). `rep` carries the metadata the cli stamped (command "env").
Report env_report(const EnvRequest& req, Report rep = {});

/// The same for an inventory already in hand; `kb` may be nullptr (no support policy to fill gaps with).
Report env_report_for(const inventory::Inventory& inv, const compat::KnowledgeBase* kb, Report rep = {});

}  // namespace gpucheck::report
