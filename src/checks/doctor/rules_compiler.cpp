// Host compiler vs the range the build toolkit's nvcc accepts. The verdict is checks/compiler's, the same
// one `gpucheck env` shows; doctor reports it when it needs attention.
#include "checks/compiler/host_compiler.h"
#include "checks/doctor/rules.h"

namespace gpucheck::compat {
namespace {

// The core Finding as doctor's own Finding type (the two carry the same fields).
Finding doctor_finding(const gpucheck::Finding& f) {
  Finding d;
  d.id = f.id;
  d.severity = f.status == Status::kFail ? Severity::kError : f.status == Status::kWarn ? Severity::kWarn : Severity::kInfo;
  d.title = f.title;
  for (const auto& e : f.evidence) d.evidence.push_back({e.what, e.value, e.source});
  d.explanation = f.explanation;
  for (const auto& x : f.fixes) d.fixes.push_back({x.rank, x.summary, x.commands, x.cost});
  d.references = f.references;
  return d;
}

}  // namespace

void check_host_compiler(const DoctorContext& ctx, std::vector<Finding>& out) {
  const inventory::Toolkit* tk = ctx.build.toolkit;
  if (!tk || tk->version.empty()) return;
  gpucheck::Finding f = compiler::judge_host_compiler(ctx.inv, *tk, &ctx.kb);
  if (f.status == Status::kFail || f.status == Status::kWarn) out.push_back(doctor_finding(f));
}

}  // namespace gpucheck::compat
