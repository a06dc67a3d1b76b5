#pragma once
// Which torch build to recommend for a given CUDA toolkit (or driver), near the torch already installed.
#include <string>

#include "checks/doctor/doctor_context.h"

namespace gpucheck::compat {

struct TorchChoice {
  const TorchRelease* release = nullptr;
  const TorchBuild* build = nullptr;
  explicit operator bool() const { return release && build; }
};

/// A build for exactly this CUDA major.minor, else the newest build of the same major with a minor not
/// above it (torch accepts a minor mismatch). Prefers the installed torch's series, then the nearest
/// release; only releases that support the primary Python (when known) and, when `max_driver_cuda` is
/// set, builds the driver can run.
TorchChoice torch_for_cuda(const DoctorContext& ctx, const std::string& cuda_major_minor,
                           const std::string& max_driver_cuda = "");

}  // namespace gpucheck::compat
