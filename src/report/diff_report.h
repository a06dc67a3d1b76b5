#pragma once
// `gpucheck diff A.json B.json`: what differs between two saved inventories, as a Report.
#include <string>

#include "inventory/model.h"
#include "knowledge/knowledge_base.h"
#include "model/report.h"

namespace gpucheck::report {

/// Section "differences": one Finding per differing fact (checks/diff) between inventory `a` (read from
/// `file_a`) and `b`. details {a, b: {file, hostname, collected_at}, differences, that_matter}. Reading
/// the files is commands/diff.cpp's.
model::Report diff_report(const std::string& file_a, const inventory::Inventory& a, const std::string& file_b,
                   const inventory::Inventory& b, const knowledge::KnowledgeBase& kb, model::Report rep = {});

}  // namespace gpucheck::report
