// Host compiler vs the range the build toolkit's nvcc accepts. The verdict is checks/compiler's, the same
// one `gpucheck env` shows; doctor reports it when it needs attention.
#include "checks/compiler/host_compiler.h"
#include "checks/doctor/rules.h"

namespace gpucheck::doctor {

void check_host_compiler(const DoctorContext& ctx, std::vector<Finding>& out) {
  const inventory::Toolkit* tk = ctx.build.toolkit;
  if (!tk || tk->version.empty()) return;
  Finding f = compiler::judge_host_compiler(ctx.inv, *tk, &ctx.kb);
  if (f.status == Status::kFail || f.status == Status::kWarn) out.push_back(std::move(f));
}

}  // namespace gpucheck::doctor
