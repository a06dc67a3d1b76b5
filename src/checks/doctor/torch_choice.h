#pragma once
// Which torch build doctor recommends for a CUDA toolkit (or driver): the planner's answer
// (planner::torch_for_cuda) for this context's machine, so explain and doctor name the same build; and the
// planner's plan for a package that must fit the installed torch.
#include <optional>
#include <string>
#include <vector>

#include "checks/doctor/doctor_context.h"
#include "checks/planner/resolver.h"
#include "core/finding.h"

namespace gpucheck::doctor {

/// The planner's machine for this context: the judged Python, the driver, every GPU, glibc, and the toolkit
/// torch's extension builder would use (BuildToolkit).
planner::Machine planner_machine(const DoctorContext& ctx);

/// `pip install ARGS` as it works for the judged interpreter: where it is externally managed (PEP 668: Debian's
/// /usr/bin/python3, which refuses pip), a venv that still sees the system's packages, and pip there.
std::vector<std::string> pip_install(const DoctorContext& ctx, const std::string& args);

/// A torch build for exactly this CUDA major.minor, else the best of the same major with a minor not above
/// it; within `max_driver_cuda` when set, for the judged Python and every GPU here.
std::optional<planner::Plan> torch_for_cuda(const DoctorContext& ctx, const std::string& cuda_major_minor,
                                            const std::string& max_driver_cuda = "");
/// The same, within the release series of `installed_torch` ("2.0.1+cpu" -> 2.0.1; "2.0" -> any 2.0.x): the
/// build that keeps torchvision, torchaudio and extensions made for that release. nullopt when that release has
/// no build that fits.
std::optional<planner::Plan> torch_for_cuda_in_release(const DoctorContext& ctx, const std::string& cuda_major_minor,
                                                       const std::string& max_driver_cuda, const std::string& installed_torch);

/// The planner's plan for `package` (`version`: that release, "" any) with the installed torch kept: its
/// TORCH_CUDA_ARCH_LIST for this nvcc and these GPUs, its toolkit, `wheel` before a --no-build-isolation
/// build, `<that python> -m pip`; the installed release is rebuilt (--force-reinstall --no-cache-dir), else
/// pip would say "already satisfied" or reuse the cached wheel of the broken build. When no plan keeps this
/// torch build, a fix with only a summary saying why.
Fix plan_keeping_torch(const DoctorContext& ctx, const std::string& package, const std::string& version, int rank);

/// True when a package's torch requirement is one exact release ("==2.3.0") and the installed torch
/// ("2.3.1+cu121") is another patch release of the same minor: a conflict pip reports, while the package's
/// compiled part built against X.Y.0 normally loads on X.Y.Z (bug-fix releases of one release branch).
bool torch_pin_differs_in_patch_only(const std::string& specifiers, const std::string& installed_torch);

/// Makes an error on such a pin (whose import is not seen failing) the risk it is: a warning, with why and
/// its source added to the explanation and references.
void mark_patch_only_pin(Finding& f);

}  // namespace gpucheck::doctor
