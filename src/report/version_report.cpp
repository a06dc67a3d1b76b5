#include "report/version_report.h"

#include "gpucheck/build_info.h"

namespace gpucheck::report {

Report version_report(Report rep) {
  if (rep.meta.command.empty()) rep.meta.command = "version";
  rep.details = {{"version", build::kVersion},
                 {"cuda_compiler", build::kCudaCompilerVersion},
                 {"cuda_architectures", build::kCudaArchitectures},
                 {"cuda", build::kHaveCuda},
                 {"nccl", build::kHaveNccl},
                 {"torch", build::kHaveTorch}};
  return rep;
}

}  // namespace gpucheck::report
