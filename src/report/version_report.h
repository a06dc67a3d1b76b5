#pragma once
// `gpucheck version`: this build's version and configuration, as a Report.
#include "model/report.h"

namespace gpucheck::report {

/// No findings; details {version, cuda_compiler, cuda_architectures, cuda, nccl, torch}.
model::Report version_report(model::Report rep = {});

}  // namespace gpucheck::report
