#include "common/tolerance.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace gpucheck::kernels {

namespace tolerance {
double stored_bound(Dtype d, double ref, double float_error) {
  return kStoredUlps16 * ulp_of(d, std::fabs(ref) + float_error) + float_error;
}
}  // namespace tolerance

std::string CheckReport::describe() const {
  std::ostringstream o;
  o.precision(3);
  o << name << ": " << mismatches << "/" << count << " outside tolerance, max abs " << std::scientific << max_abs
    << ", max rel " << max_rel << ", worst [" << worst_index << "] got " << worst_got << " want " << worst_want
    << " allowed " << worst_allowed;
  return o.str();
}

void to_json(nlohmann::json& j, const CheckReport& r) {
  auto num = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(std::to_string(v)); };
  j = {{"name", r.name},          {"count", r.count},           {"mismatches", r.mismatches},
       {"max_abs", num(r.max_abs)}, {"max_rel", num(r.max_rel)}, {"worst_index", r.worst_index},
       {"worst_got", num(r.worst_got)}, {"worst_want", num(r.worst_want)}, {"worst_allowed", num(r.worst_allowed)},
       {"ok", r.ok()}};
}

CheckReport check_elements(const std::string& name, std::size_t n, const std::function<double(std::size_t)>& got,
                           const std::function<double(std::size_t)>& want,
                           const std::function<double(std::size_t)>& allowed) {
  CheckReport r;
  r.name = name;
  r.count = n;
  bool have_nonfinite_miss = false;
  for (std::size_t i = 0; i < n; ++i) {
    double g = got(i), w = want(i);
    bool bad = false;
    double ratio = 0.0, tol = 0.0;
    if (std::isnan(w) || std::isnan(g)) {
      bad = !(std::isnan(w) && std::isnan(g));
    } else if (std::isinf(w) || std::isinf(g)) {
      bad = g != w;
    } else {
      double err = std::fabs(g - w);
      tol = allowed(i);
      r.max_abs = std::max(r.max_abs, err);
      if (w != 0) r.max_rel = std::max(r.max_rel, err / std::fabs(w));
      ratio = tol > 0 ? err / tol : (err > 0 ? INFINITY : 0.0);
      bad = err > tol;
    }
    if (bad) ++r.mismatches;
    // Worst element: the first non-finite mismatch wins; otherwise the largest error/allowed ratio.
    bool nonfinite_miss = bad && !(std::isfinite(g) && std::isfinite(w));
    if (!have_nonfinite_miss && (nonfinite_miss || ratio > r.worst_ratio)) {
      r.worst_index = i;
      r.worst_got = g;
      r.worst_want = w;
      r.worst_allowed = tol;
      r.worst_ratio = nonfinite_miss ? INFINITY : ratio;
      have_nonfinite_miss = nonfinite_miss;
    }
  }
  return r;
}

CheckReport check_exact(const std::string& name, const HostTensor& got, const HostTensor& want) {
  if (got.size() != want.size()) throw std::invalid_argument(name + ": size mismatch");
  return check_elements(
      name, got.size(), [&](std::size_t i) { return got.get(i); }, [&](std::size_t i) { return want.get(i); },
      [](std::size_t) { return 0.0; });
}

CheckReport could_not_run(const std::string& why) {
  CheckReport r;
  r.name = why;
  r.count = 1;
  r.mismatches = 1;
  return r;
}

CheckReport check_flag(const std::string& name, int got, int want) {
  return check_elements(
      name, 1, [&](std::size_t) { return double(got); }, [&](std::size_t) { return double(want); },
      [](std::size_t) { return 0.0; });
}

bool all_ok(const std::vector<CheckReport>& reports) {
  for (auto& r : reports)
    if (!r.ok()) return false;
  return true;
}

std::string summarize(const std::vector<CheckReport>& reports) {
  for (auto& r : reports)
    if (!r.ok()) return r.describe();
  return std::to_string(reports.size()) + " buffers within tolerance";
}

}  // namespace gpucheck::kernels
