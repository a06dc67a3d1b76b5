#pragma once
// `gpucheck env`: collect (or load) the inventory and judge the host compiler per toolkit. The command's
// I/O (the collector, the knowledge base) lives here; report::env_report_for builds the Report.
#include "inventory/collect.h"
#include "model/report.h"
#include "commands/inventory_source.h"

namespace gpucheck::commands {

struct EnvRequest {
  commands::InventorySource source;     // --from FILE (an inventory or a report), --root DIR, --python PATH
  inventory::CollectOptions collect;  // python probing, version cache, timings
};

/// The env Report into `base` (the metadata the cli stamped). env describes and does not judge the
/// machine: its exit code is 0 whatever the host compiler section says.
model::Report env(const EnvRequest& request, model::Report base);

}  // namespace gpucheck::commands
