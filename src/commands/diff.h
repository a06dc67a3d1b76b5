#pragma once
// `gpucheck diff A.json B.json`: read two saved inventories and the knowledge base, then
// report::diff_report judges what differs.
#include <string>

#include "model/report.h"

namespace gpucheck::commands {

/// Throws InputError when a file holds no inventory.
model::Report diff(const std::string& a, const std::string& b, model::Report base);

}  // namespace gpucheck::commands
