#include "commands/abi.h"

#include <future>

#include "checks/abi/loader.h"
#include "core/errors.h"
#include "report/abi_report.h"

namespace gpucheck::commands {

model::Report abi(const AbiOptions& options, model::Report into) {
  abi::AbiRequest req = options.request;
  const commands::InventorySource& src = options.inventory;
  // The same rule as always: an inventory is read when named, else collected only when no --gpu says
  // which GPUs to judge.
  if (!src.from.empty() || !src.root.empty()) {
    inventory::CollectOptions co;
    co.python = false;
    req.inventory = commands::load_inventory(src, co);
    into.inventory = *req.inventory;
  } else if (req.gpus.empty() && req.live_inventory) {
    // This machine's GPUs and driver only, asked in a child: abi loads nothing in-process. The loader's
    // own child (`ld.so --help`, asked once per process) runs meanwhile: the two waits overlap.
    auto devices = std::async(std::launch::async, [] { return inventory::collect_devices(); });
    abi::LoaderConfig::for_this_host(nullptr);
    req.inventory = devices.get();
    into.inventory = *req.inventory;
  }
  abi::AuditReport audit = abi::run_abi(req);

  bool all_errors = !audit.targets.empty();
  for (const auto& t : audit.targets) all_errors = all_errors && !t.error.empty();
  if (all_errors && audit.targets.size() == 1 && !req.paths.empty()) throw InputError(audit.targets.front().error);
  return report::abi_report(audit, options.strict, std::move(into));
}

}  // namespace gpucheck::commands
