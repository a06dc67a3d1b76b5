#include "checks/doctor/torch_abi.h"

#include <algorithm>

#include "core/text.h"
#include "knowledge/pep440.h"
#include "knowledge/version.h"

namespace gpucheck::doctor {

std::optional<bool> wheel_torch_uses_cxx11_abi(const knowledge::KnowledgeBase& kb, const std::string& torch_version) {
  const auto v = knowledge::pep440::Version::parse(torch_version);
  if (!v || v->release.size() < 2 || v->is_prerelease()) return std::nullopt;
  // PyPI's wheels carry no local label; download.pytorch.org's "+cu126", "+cpu", "+rocm6.2".
  const bool wheel_label = v->local.empty() || starts_with(v->local, "cu") || v->local == "cpu" || starts_with(v->local, "rocm");
  if (!wheel_label) return std::nullopt;
  if (const knowledge::TorchRelease* r = kb.torch_release(torch_version)) {
    const std::string cuda = starts_with(v->local, "cu") ? v->local : v->local.empty() ? r->pypi_default_cuda : "";
    if (const knowledge::TorchBuild* b = cuda.empty() ? nullptr : r->build_for_cuda(cuda)) return b->cxx11_abi;
    const bool alike = !r->builds.empty() && std::all_of(r->builds.begin(), r->builds.end(), [&](const knowledge::TorchBuild& b) {
      return b.cxx11_abi == r->builds.front().cxx11_abi;
    });
    return alike ? std::optional<bool>(r->builds.front().cxx11_abi) : std::nullopt;
  }
  // Before the table's first release every wheel of PyTorch's used the old ABI (the new one came with 2.7).
  const auto& all = kb.torch_releases();
  const bool older = !all.empty() && std::all_of(all.begin(), all.end(), [&](const knowledge::TorchRelease& r) {
    return knowledge::compare_versions(torch_version, r.version) < 0;
  });
  return older ? std::optional<bool>(false) : std::nullopt;
}

}  // namespace gpucheck::doctor
