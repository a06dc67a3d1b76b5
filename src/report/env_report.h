#pragma once
// `gpucheck env`'s Report: the inventory and the verdicts the checks draw from it alone (the host compiler
// nvcc would use, per toolkit). Collecting or loading the inventory is commands/env.cpp's.
#include "inventory/model.h"
#include "knowledge/knowledge_base.h"
#include "model/report.h"

namespace gpucheck::report {

/// Report.inventory = `inv`; section "host_compiler" = compiler::judge_host_compilers (one finding per
/// toolkit, details.toolkit naming it). `kb` may be nullptr (no support policy to fill gaps with). `rep`
/// carries the metadata the cli stamped (command "env"); commands::env collects the inventory.
model::Report env_report_for(const inventory::Inventory& inv, const knowledge::KnowledgeBase* kb, model::Report rep = {});

}  // namespace gpucheck::report
