#pragma once
// `gpucheck env` describes the stack and judges only the host compiler per toolkit: its Report carries the
// inventory and section "host_compiler"; nothing in Report.details. Each host-compiler Finding's details
// (checks/compiler/host_compiler.cpp) are read back here for the inventory summary.
#include <map>
#include <string>

#include "core/finding.h"
#include "model/report.h"

namespace gpucheck::model {

struct EnvDetails {};

/// Per toolkit root: "fit (the finding's summary)", from the "host_compiler" section of `r`.
std::map<std::string, std::string> host_compiler_fits(const model::Report& r);

}  // namespace gpucheck::model
