#include "checks/doctor/torch_abi.h"

#include "core/text.h"
#include "knowledge/pep440.h"

namespace gpucheck::doctor {

std::optional<bool> wheel_torch_uses_cxx11_abi(const std::string& torch_version) {
  const auto v = knowledge::pep440::Version::parse(torch_version);
  if (!v || v->release.size() < 2 || v->is_prerelease()) return std::nullopt;
  // PyPI's wheels carry no local label; download.pytorch.org's "+cu126", "+cpu", "+rocm6.2".
  const bool wheel_label = v->local.empty() || starts_with(v->local, "cu") || v->local == "cpu" || starts_with(v->local, "rocm");
  if (!wheel_label) return std::nullopt;
  const long long mm = v->release[0] * 1000 + v->release[1];
  if (mm <= 2005) return false;
  if (mm == 2006) return v->local == "cu126";
  return true;
}

}  // namespace gpucheck::doctor
