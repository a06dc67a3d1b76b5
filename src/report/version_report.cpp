#include "report/version_report.h"

#include "gpucheck/build_info.h"
#include "model/tool_details.h"

namespace gpucheck::report {

model::Report version_report(model::Report rep) {
  if (rep.meta.command.empty()) rep.meta.command = "version";
  rep.details = model::to_json(model::VersionDetails{build::kVersion, build::kCudaCompilerVersion,
                                                     build::kCudaArchitectures, build::kHaveCuda, build::kHaveNccl,
                                                     build::kHaveTorch});
  return rep;
}

}  // namespace gpucheck::report
