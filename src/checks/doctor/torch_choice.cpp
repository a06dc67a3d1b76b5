#include "checks/doctor/torch_choice.h"

#include <cmath>

#include "knowledge/version.h"

namespace gpucheck::compat {
namespace {

/// Distance between release series "2.0" and "2.3" in minor steps (majors weigh 100).
int series_distance(const std::string& a, const std::string& b) {
  auto va = Version::parse(a), vb = Version::parse(b);
  if (!va || !vb) return 1000;
  return std::abs((va->major() * 100 + va->minor()) - (vb->major() * 100 + vb->minor()));
}

}  // namespace

TorchChoice torch_for_cuda(const DoctorContext& ctx, const std::string& cuda, const std::string& max_driver_cuda) {
  auto want = Version::parse(cuda);
  if (!want) return {};
  std::string installed = ctx.python && ctx.python->torch_installed ? ctx.python->torch_version : "";
  std::string python = ctx.python ? ctx.python->version : "";
  TorchChoice best;
  int best_score = 1 << 30;
  for (const auto& r : ctx.kb.torch_releases()) {
    if (!python.empty() && !r.supports_python(python)) continue;
    for (const auto& b : r.builds) {
      auto bv = Version::parse(b.cuda);
      if (!bv || bv->major() != want->major() || bv->minor() > want->minor()) continue;
      if (!max_driver_cuda.empty() && compare_versions(b.cuda, max_driver_cuda) > 0) continue;
      // Exact CUDA match first, then closeness to the installed torch (or newest when none).
      int score = (bv->minor() == want->minor() ? 0 : 100000 + (want->minor() - bv->minor()) * 1000);
      score += installed.empty() ? -series_distance(r.version, "0.0") : series_distance(r.version, installed) * 2;
      if (!installed.empty() && compare_versions(r.version, installed) < 0) score += 1;  // ties go to newer
      if (score < best_score) {
        best_score = score;
        best = {&r, &b};
      }
    }
  }
  return best;
}

}  // namespace gpucheck::compat
