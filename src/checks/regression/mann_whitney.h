#pragma once
// The two-sided Mann-Whitney U test (Wilcoxon rank-sum), the statistic Google Benchmark's compare.py and
// asv use to decide whether two sets of benchmark repetitions differ. Pure functions, no state.
#include <cstddef>
#include <vector>

namespace gpucheck::regression {

struct UTest {
  std::size_t n1 = 0, n2 = 0;
  double u1 = 0;         // U of the first sample: pairs (x in a, y in b) with x > y, ties counted 1/2
  double u2 = 0;         // n1*n2 - u1
  double p = 1;          // two-sided p-value
  bool exact = false;    // p from the exact null distribution (no ties, small samples), else normal approx.
  bool ties = false;     // some value occurs in both or twice
  double z = 0;          // the normal approximation's statistic (0 when exact)
};

/// The largest sample size (each side) for which the exact distribution is used when there are no ties.
inline constexpr std::size_t kExactMaxSamples = 50;

/// Two-sided test of `a` against `b`. Exact p when there are no ties and both sizes are at most
/// kExactMaxSamples (scipy's `method="exact"`); otherwise the normal approximation with tie correction and
/// continuity correction (scipy's `method="asymptotic"`). Either sample empty: p = 1.
UTest mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b);

/// Number of arrangements of n1 x's and n2 y's giving each U = 0..n1*n2 (the exact null distribution
/// times C(n1+n2, n1)), counted by the recurrence f(m,n,u) = f(m-1,n,u-n) + f(m,n-1,u).
std::vector<double> u_counts(std::size_t n1, std::size_t n2);

/// P(U <= u) under the null hypothesis, exact.
double exact_cdf(double u, std::size_t n1, std::size_t n2);

/// The two-sided exact p-value of U = u: min(1, 2 * P(U <= min(u, n1*n2 - u))).
double exact_p_two_sided(double u, std::size_t n1, std::size_t n2);

/// The two-sided p-value of U = u1 by the normal approximation with continuity correction; `tie_term` is
/// sum(t^3 - t) over tie groups of the pooled sample (0 without ties).
double asymptotic_p_two_sided(double u1, std::size_t n1, std::size_t n2, double tie_term = 0);

/// The smallest two-sided p-value samples of these sizes can reach (all of one side below the other):
/// below alpha or the test can never call a difference significant.
double smallest_p(std::size_t n1, std::size_t n2);

}  // namespace gpucheck::regression
