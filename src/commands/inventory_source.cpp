#include "commands/inventory_source.h"

#include "core/errors.h"
#include "core/files.h"
#include "inventory/version_cache.h"

namespace gpucheck::commands {

std::string InventorySource::describe() const {
  if (!from.empty()) return "--from " + from;
  if (!root.empty()) return "--root " + root;
  return "live";
}

inventory::Inventory load_inventory(const InventorySource& source, inventory::CollectOptions base) {
  if (!source.from.empty() && !source.root.empty()) throw InputError("--from and --root exclude each other");
  if (!source.from.empty()) {
    if (!source.pythons.empty()) throw InputError("--python and --from exclude each other (the document is judged as it is)");
    return inventory::load_inventory(source.from);  // an inventory, or a report embedding one
  }
  if (!source.root.empty()) base.root = source.root;
  // Library versions and Python probe answers are remembered under one switch (collect.h).
  if (source.cache && base.version_cache.empty()) base.version_cache = inventory::default_version_cache_file();
  base.pythons.insert(base.pythons.end(), source.pythons.begin(), source.pythons.end());
  return inventory::collect(base);
}

}  // namespace gpucheck::commands
