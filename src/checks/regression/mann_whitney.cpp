#include "checks/regression/mann_whitney.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gpucheck::regression {

std::vector<double> u_counts(std::size_t n1, std::size_t n2) {
  // row[j] holds f(i, j, .) for the current i; f(0, j, u) = f(i, 0, u) = [u == 0].
  std::vector<std::vector<double>> row(n2 + 1, std::vector<double>{1.0});
  for (std::size_t i = 1; i <= n1; ++i) {
    std::vector<std::vector<double>> next(n2 + 1);
    next[0] = {1.0};
    for (std::size_t j = 1; j <= n2; ++j) {
      std::vector<double> f(i * j + 1, 0.0);
      // The largest element is an x (it beats all j y's: U shifts by j) or a y (U unchanged).
      const auto& x_last = row[j];       // f(i-1, j, .)
      const auto& y_last = next[j - 1];  // f(i, j-1, .)
      for (std::size_t u = 0; u < x_last.size(); ++u) f[u + j] += x_last[u];
      for (std::size_t u = 0; u < y_last.size(); ++u) f[u] += y_last[u];
      next[j] = std::move(f);
    }
    row = std::move(next);
  }
  return row[n2];
}

double exact_cdf(double u, std::size_t n1, std::size_t n2) {
  if (u < 0) return 0;
  std::vector<double> c = u_counts(n1, n2);
  double total = std::accumulate(c.begin(), c.end(), 0.0);
  double below = 0;
  for (std::size_t k = 0; k < c.size() && static_cast<double>(k) <= u + 1e-9; ++k) below += c[k];
  return below / total;
}

double exact_p_two_sided(double u, std::size_t n1, std::size_t n2) {
  double mn = static_cast<double>(n1 * n2);
  return std::min(1.0, 2.0 * exact_cdf(std::min(u, mn - u), n1, n2));
}

double smallest_p(std::size_t n1, std::size_t n2) {
  if (n1 == 0 || n2 == 0) return 1.0;
  // Both orders of complete separation, out of C(n1+n2, n1) equally likely arrangements.
  double arrangements = 1;
  for (std::size_t k = 1; k <= n1; ++k) arrangements = arrangements * static_cast<double>(n2 + k) / static_cast<double>(k);
  return std::min(1.0, 2.0 / arrangements);
}

namespace {
// Standard normal upper tail, P(Z > z).
double normal_sf(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }
}  // namespace

double asymptotic_p_two_sided(double u1, std::size_t n1_, std::size_t n2_, double tie_term) {
  const double n1 = static_cast<double>(n1_), n2 = static_cast<double>(n2_), mn = n1 * n2, n = n1 + n2;
  if (n1_ == 0 || n2_ == 0) return 1.0;
  const double sigma = std::sqrt(mn / 12.0 * ((n + 1) - tie_term / (n * (n - 1))));
  if (!(sigma > 0)) return 1.0;  // every value equal: no evidence of a difference
  const double u = std::max(u1, mn - u1);
  const double z = (u - mn / 2.0 - 0.5) / sigma;  // continuity correction toward the mean
  return std::clamp(2.0 * normal_sf(z), 0.0, 1.0);
}

UTest mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b) {
  UTest t;
  t.n1 = a.size();
  t.n2 = b.size();
  if (a.empty() || b.empty()) return t;
  // Midranks over the pooled sample; tie groups also give the variance correction sum(t^3 - t).
  std::vector<std::pair<double, int>> pooled;
  pooled.reserve(a.size() + b.size());
  for (double x : a) pooled.push_back({x, 0});
  for (double y : b) pooled.push_back({y, 1});
  std::sort(pooled.begin(), pooled.end());
  double rank_sum_a = 0, tie_term = 0;
  for (std::size_t i = 0; i < pooled.size();) {
    std::size_t j = i;
    while (j < pooled.size() && pooled[j].first == pooled[i].first) ++j;
    double midrank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
    double size = static_cast<double>(j - i);
    if (j - i > 1) {
      t.ties = true;
      tie_term += size * size * size - size;
    }
    for (std::size_t k = i; k < j; ++k)
      if (pooled[k].second == 0) rank_sum_a += midrank;
    i = j;
  }
  const double n1 = static_cast<double>(t.n1), n2 = static_cast<double>(t.n2), mn = n1 * n2;
  t.u1 = rank_sum_a - n1 * (n1 + 1) / 2.0;
  t.u2 = mn - t.u1;
  if (!t.ties && t.n1 <= kExactMaxSamples && t.n2 <= kExactMaxSamples) {
    t.exact = true;
    t.p = exact_p_two_sided(t.u1, t.n1, t.n2);
    return t;
  }
  t.p = asymptotic_p_two_sided(t.u1, t.n1, t.n2, tie_term);
  const double sigma = std::sqrt(mn / 12.0 * ((n1 + n2 + 1) - tie_term / ((n1 + n2) * (n1 + n2 - 1))));
  if (sigma > 0) t.z = (std::max(t.u1, t.u2) - mn / 2.0 - 0.5) / sigma;
  return t;
}

}  // namespace gpucheck::regression
