#include "checks/doctor/doctor.h"

#include <algorithm>

#include "checks/doctor/rules.h"
#include "checks/doctor/rules_cuda_wheels.h"

namespace gpucheck::doctor {

std::vector<Finding> diagnose(const DoctorContext& ctx) {
  std::vector<Finding> findings;
  for (auto rule : {check_toolkit_vs_torch, check_driver, check_host_compiler, check_gpu_arch, check_library_shadowing,
                    check_installed_extensions, check_torch_install, check_requirements, check_shared_files, check_shared_packages,
                    check_cuda_wheel_majors,
                    check_numpy_abi, check_import_failures})
    rule(ctx, findings);
  std::stable_sort(findings.begin(), findings.end(),
                   [](const Finding& a, const Finding& b) { return severity(a.status) > severity(b.status); });
  return findings;
}

}  // namespace gpucheck::doctor
