#include "inventory/collect.h"

#include "core/text.h"
#include "report/report.h"

namespace gpucheck::inventory {

// Interim: only host identity. The full collectors (driver, GPUs, toolkits, libraries, Pythons,
// compilers, system) are issue 3.
Inventory collect(const CollectOptions& options) {
  Inventory inv;
  inv.collected_at = utc_now_iso();
  inv.root = options.root;
  inv.hostname = report::hostname();
  inv.notes.push_back("inventory collectors not implemented yet");
  return inv;
}

}  // namespace gpucheck::inventory
