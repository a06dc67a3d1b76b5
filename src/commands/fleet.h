#pragma once
// `gpucheck fleet merge DIR|FILE...`: read every report (or multi-node probe result) named, then
// report::fleet_report judges the nodes together.
#include <string>
#include <vector>

#include "report/fleet_report.h"

namespace gpucheck::commands {

/// `inputs` are report files or directories of them (*.json, not recursive). InputError when an input does
/// not exist or none holds a *.json; a file that cannot be read becomes an incomplete node with its reason.
model::Report fleet_merge(const std::vector<std::string>& inputs, const report::FleetOptions& o, model::Report base);

}  // namespace gpucheck::commands
