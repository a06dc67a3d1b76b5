#include "checks/doctor/torch_choice.h"

namespace gpucheck::compat {

planner::Machine planner_machine(const DoctorContext& ctx) {
  const auto* tk = ctx.build.toolkit;
  return planner::machine_from_inventory(ctx.inv, ctx.python, tk ? tk->version : "", tk ? tk->root : "");
}

std::optional<planner::Plan> torch_for_cuda(const DoctorContext& ctx, const std::string& cuda,
                                            const std::string& max_driver_cuda) {
  return planner::torch_for_cuda(ctx.kb, planner_machine(ctx), cuda, max_driver_cuda);
}

}  // namespace gpucheck::compat
