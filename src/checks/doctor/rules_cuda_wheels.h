#pragma once
// NVIDIA CUDA library wheels of two CUDA majors side by side (nvidia-cudnn-cu11 and -cu12).
#include <vector>

#include "checks/doctor/doctor_context.h"
#include "core/finding.h"

namespace gpucheck::doctor {

/// Warns when an environment holds nvidia-<library>-cuXX wheels of two CUDA majors: they share one directory.
void check_cuda_wheel_majors(const DoctorContext& ctx, std::vector<Finding>& out);

}  // namespace gpucheck::doctor
