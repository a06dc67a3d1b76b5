#pragma once
// `gpucheck selftest`: every acceptance rule meets the fault it exists for and a clean input, on this node,
// without touching its GPUs (docs/acceptance.md "Selftest"); one Finding per rule in section "selftest".
#include <string>
#include <vector>

#include "model/report.h"

namespace gpucheck::commands {

/// The rule ids the selftest can remove for a run (its --disable).
std::vector<std::string> selftest_rules();

/// Injects each fault, judges what each rule produced, into `base`. `disable` (rule ids, comma-separated
/// lists allowed) removes those rules' checks for the run and every helper it spawns (the selftest must then
/// fail naming them); an id that is not in selftest_rules() throws InputError.
model::Report selftest(const std::vector<std::string>& disable, model::Report base);

}  // namespace gpucheck::commands
