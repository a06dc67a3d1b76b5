#pragma once
// What differs between two inventories (a working and a broken environment, two nodes): one Finding per
// differing fact, `fail` when the difference can break something (the driver, the GPUs, toolkits, the
// judged Python, torch's build, a package the knowledge base tracks, a loaded CUDA library), `info`
// otherwise; the consequence is named where it is known: from the knowledge base (the minimum driver of
// a CUDA release, a package's ABI break) or from how loading works (a CUDA major is a library soname).
#include <vector>

#include "core/finding.h"
#include "inventory/model.h"
#include "knowledge/knowledge_base.h"

namespace gpucheck::diff {

/// Findings with id "diff.<fact>" (diff.driver, diff.torch_cuda, diff.package.numpy, diff.library.cudart,
/// ...), evidence {A, B}, details {fact, a, b, matters}; empty when no compared fact differs.
std::vector<Finding> diff_inventories(const inventory::Inventory& a, const inventory::Inventory& b,
                                      const knowledge::KnowledgeBase& kb);

}  // namespace gpucheck::diff
