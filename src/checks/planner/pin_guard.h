#pragma once
// `-r FILE` and `--for SPEC` bind every fix a report prints, not only the install plan: a fix that would
// install `torch==2.4.1` while the requirements pin `torch<2.0` undoes what the user asked for. The guard
// reads each command's `name==version` words (as pip reads them, quotes removed) against the asks.
#include <string>
#include <vector>

#include "checks/planner/resolver.h"
#include "core/finding.h"

namespace gpucheck::planner {

/// The pins a fix would break: "torch==2.4.1 (excluded by torch<2.0 (requirements.txt:1))", one per word;
/// empty when every `name==version` its commands install fits every ask of that name.
std::vector<std::string> pins_broken_by(const Fix& fix, const std::vector<Ask>& asks);

/// Removes from `findings` every fix that breaks a pin; the finding keeps an evidence line saying which
/// fix was left out and why, and its remaining fixes are ranked again from 1.
void bind_fixes_to_asks(std::vector<Finding>& findings, const std::vector<Ask>& asks);

}  // namespace gpucheck::planner
