#pragma once
// Where a command's inventory comes from, the same for every command that reads one: this machine
// (default), a mounted tree (--root DIR), or a document (--from FILE: `gpucheck env --json` output, a
// report that embeds an inventory, or a bare inventory), with extra interpreters (--python PATH).
#include <string>
#include <vector>

#include "inventory/collect.h"
#include "inventory/model.h"

namespace gpucheck::commands {

struct InventorySource {
  std::string from;                  // --from FILE
  std::string root;                  // --root DIR
  std::vector<std::string> pythons;  // --python PATH, repeatable
  /// Reuse what earlier runs remembered of unchanged files (library versions, Python environments' probe
  /// answers: inventory/version_cache.h, python_env_cache.h); `--no-cache` looks at everything afresh.
  /// Only for a live inventory (env, doctor).
  bool cache = false;

  /// "--from FILE", "--root DIR" or "live": how the report names where its facts came from.
  std::string describe() const;
};

/// Loads (--from) or collects (--root / live) the inventory. `base` carries the command's own collect
/// options (python probing, version cache); root and pythons come from `source`. Throws InputError for
/// --from together with --root, or a document that is neither an inventory nor a report with one.
inventory::Inventory load_inventory(const InventorySource& source, inventory::CollectOptions base = {});

}  // namespace gpucheck::commands
