#pragma once
// Which torch build doctor recommends for a CUDA toolkit (or driver): the planner's answer
// (planner::torch_for_cuda) for this context's machine, so explain and doctor name the same build.
#include <optional>
#include <string>

#include "checks/doctor/doctor_context.h"
#include "checks/planner/resolver.h"

namespace gpucheck::compat {

/// The planner's machine for this context: the judged Python, the driver, every GPU, glibc, and the toolkit
/// torch's extension builder would use (BuildToolkit).
planner::Machine planner_machine(const DoctorContext& ctx);

/// A torch build for exactly this CUDA major.minor, else the best of the same major with a minor not above
/// it; within `max_driver_cuda` when set, for the judged Python and every GPU here.
std::optional<planner::Plan> torch_for_cuda(const DoctorContext& ctx, const std::string& cuda_major_minor,
                                            const std::string& max_driver_cuda = "");

}  // namespace gpucheck::compat
