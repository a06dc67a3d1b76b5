#pragma once
// The one place where acceptance thresholds live. Every kernel check (probes, tests, benchmarks) compares
// a result with a double-precision reference element by element against an allowed absolute error
// computed here, and reports max abs / max rel error and the worst element's index.
//
// Why these numbers (spec §1.10 and CUDA's documented accuracy, no fast-math):
//  * fp32 master weight: the kernel evaluates ~8 float operations (fmad contraction allowed), each off by
//    <= 0.5 ulp of its own magnitude; the operands are bounded by max(|p_old|, |update|, |p_new|), so the
//    result is within 4 ulp32 of that magnitude. Relative to p_new alone it could be arbitrarily many ulps
//    when p_old and the update cancel — which is why the bound uses the larger input term.
//    That argument holds for the operations after m1 but not for m1 itself: m1 = b1·m + (1-b1)·g is exact
//    only to 2 ulp32 of its larger addend (the moment bound below), and when g opposes m the two cancel,
//    so |m1| and hence |update| can be many times smaller than that error (e.g. b1·m = 0.0170,
//    (1-b1)·g = -0.0179, m1 = -9.1e-4: ~1e-6 relative, ~8 ulps of the update). The update is linear in m1,
//    d update / d m1 = lr/(bc1·denom), so p additionally carries lr/(bc1·denom)·(moment bound of m1);
//    check_adam_step adds that term. Without it ~1 element in 1.7e7 of random state failed (kernels
//    exact to the FMA, reference exact in double: the bound, not the kernel, was wrong).
//  * fp32 moments (m, v): one multiply-add of two terms: 2 ulp32 of the largest term, plus the error of
//    the float gradient they are built from (one ulp of |g/S| + |wd·p|; it enters v through g², 2·|g|·δg).
//  * 16-bit stored values (param_h, fp16 m, softmax, gradients): the float value before rounding is
//    already within the fp32 bound above, far below one 16-bit ulp, so the rounded value may differ from
//    the reference by at most one 16-bit ulp (a rounding-boundary flip) plus that fp32 error.
//  * inf/NaN flag: exact (a bit test on the raw pattern, no arithmetic).
//  * cross-entropy: expf <= 2 ulp, logf <= 1 ulp, IEEE division; exp(x - max) inherits the rounding of
//    x - max (relative error |x - max|·2^-24), the row sum in float accumulates <= kCeSumRelError (our
//    launch shape sums <= ~100 elements per thread sequentially, then a tree: (100 + 10)·2^-24 ~ 6.6e-6,
//    rounded up). The loss adds log(sum) (abs error ~ the sum's relative error) to -x_t + max.
//  * NaN where the reference has NaN, identical ±inf where it has ±inf, never NaN/inf otherwise.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/host_tensor.h"

namespace gpucheck::kernels::tolerance {

inline constexpr double kFp32MasterUlps = 4.0;
inline constexpr double kFp32MomentUlps = 2.0;
inline constexpr double kStoredUlps16 = 1.0;
inline constexpr double kFp32StoredUlps = 2.0;  // fp32 outputs of one rounded expression (CE backward)
inline constexpr double kCeSumRelError = 8e-6;
inline constexpr double kCeExpUlps = 3.0;       // expf (2 ulp) + the division (0.5 ulp), rounded up

/// Allowed error of a value of dtype `d` that is the rounding of a float result whose own error is
/// `float_error`, reference value `ref`.
double stored_bound(Dtype d, double ref, double float_error);

}  // namespace gpucheck::kernels::tolerance

namespace gpucheck::kernels {

/// Outcome of comparing one output buffer with its reference.
struct CheckReport {
  std::string name;
  std::size_t count = 0;
  std::size_t mismatches = 0;
  double max_abs = 0.0;        // max |got - want| over finite pairs
  double max_rel = 0.0;        // max |got - want| / |want| over finite pairs with want != 0
  std::size_t worst_index = 0; // element with the largest error / allowed ratio (or first non-finite mismatch)
  double worst_got = 0.0, worst_want = 0.0, worst_allowed = 0.0;
  double worst_ratio = 0.0;    // error / allowed at worst_index (> 1 means failure)
  bool ok() const { return mismatches == 0; }
  std::string describe() const;  // "param_h: 0/4096 outside tolerance, max abs 1.2e-07 ..."
};
void to_json(nlohmann::json& j, const CheckReport& r);

/// Compares got(i) with want(i) for i < n, element i allowed |got - want| <= allowed(i).
/// Non-finite rules: want NaN -> got must be NaN; want ±inf -> got must be the same inf; want finite ->
/// got must be finite.
CheckReport check_elements(const std::string& name, std::size_t n, const std::function<double(std::size_t)>& got,
                           const std::function<double(std::size_t)>& want,
                           const std::function<double(std::size_t)>& allowed);

/// Exact comparison (every element bit-identical as a value, NaN matches NaN).
CheckReport check_exact(const std::string& name, const HostTensor& got, const HostTensor& want);

/// A check that could not compare anything because producing the result failed (a launcher raised, a
/// CUDA error): one mismatch named by `why`.
CheckReport could_not_run(const std::string& why);

/// A flag (the inf/NaN byte) must equal the reference exactly.
CheckReport check_flag(const std::string& name, int got, int want);

bool all_ok(const std::vector<CheckReport>& reports);
std::string summarize(const std::vector<CheckReport>& reports);  // the first failing report, or all ok

}  // namespace gpucheck::kernels
