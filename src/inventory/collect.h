#pragma once
// Collects the inventory of the live machine (or of a mounted tree with `root`).
#include <string>
#include <vector>

#include "inventory/model.h"

namespace gpucheck::inventory {

struct CollectOptions {
  std::string root = "/";               // inspect a mounted image/chroot: files only, nothing executed there
  bool python = true;                   // probe Python environments (slowest part)
  std::vector<std::string> pythons;     // extra interpreters (--python PATH)
};

Inventory collect(const CollectOptions& options);

}  // namespace gpucheck::inventory
