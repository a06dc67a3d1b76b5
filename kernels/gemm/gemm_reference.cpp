#include "gemm/gemm_reference.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <sstream>
#include "core/rule_switch.h"

namespace gpucheck::kernels {

namespace {
// Stores value v (exact in the type, or rounded to it) as the type's bytes at element i; returns what was stored.
double store(GemmType t, std::vector<std::uint8_t>& bytes, std::size_t i, double v) {
  float f = static_cast<float>(v);
  switch (t) {
    case GemmType::kFp32:
    case GemmType::kTf32: {
      // tf32 inputs are generated already cut to tf32, so the product the tensor core forms is known.
      if (t == GemmType::kTf32) f = tf32_truncate(f);
      std::memcpy(&bytes[i * 4], &f, 4);
      return f;
    }
    case GemmType::kFp16: {
      std::uint16_t h = fp16_from_float(f);
      std::memcpy(&bytes[i * 2], &h, 2);
      return fp16_to_float(h);
    }
    case GemmType::kBf16: {
      std::uint16_t h = bf16_from_float(f);
      std::memcpy(&bytes[i * 2], &h, 2);
      return bf16_to_float(h);
    }
    case GemmType::kFp8: {
      std::uint8_t q = e4m3_from_float(f);
      bytes[i] = q;
      return e4m3_to_float(q);
    }
  }
  return 0;
}

GemmCase make_case(GemmType t, std::int64_t m, std::int64_t n, std::int64_t k, std::uint64_t seed,
                   const std::function<double(std::mt19937_64&)>& draw) {
  GemmCase c;
  c.type = t;
  c.m = m, c.n = n, c.k = k;
  std::mt19937_64 rng(seed);
  auto fill = [&](std::vector<std::uint8_t>& bytes, std::vector<double>& values, std::size_t count) {
    bytes.assign(count * input_bytes(t), 0);
    values.resize(count);
    for (std::size_t i = 0; i < count; ++i) values[i] = store(t, bytes, i, draw(rng));
  };
  fill(c.a, c.a_value, static_cast<std::size_t>(k * m));
  fill(c.b, c.b_value, static_cast<std::size_t>(k * n));
  return c;
}

std::string element(const GemmCase& c, std::int64_t i, std::int64_t j) {
  return "c[" + std::to_string(i) + "," + std::to_string(j) + "] (" + std::to_string(c.m) + "x" +
         std::to_string(c.n) + "x" + std::to_string(c.k) + ")";
}
}  // namespace

GemmCase make_integer_case(GemmType t, std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t bound,
                           std::uint64_t seed) {
  return make_case(t, m, n, k, seed, [bound](std::mt19937_64& rng) {
    return static_cast<double>(std::uniform_int_distribution<std::int64_t>(-bound, bound)(rng));
  });
}

GemmCase make_random_case(GemmType t, std::int64_t m, std::int64_t n, std::int64_t k, std::uint64_t seed) {
  return make_case(t, m, n, k, seed, [](std::mt19937_64& rng) {
    return std::uniform_real_distribution<double>(-1.0, 1.0)(rng);
  });
}

std::vector<std::int64_t> exact_product(const GemmCase& c) {
  std::vector<std::int64_t> a(c.a_value.begin(), c.a_value.end()), b(c.b_value.begin(), c.b_value.end());
  std::vector<std::int64_t> out(static_cast<std::size_t>(c.m * c.n));
  for (std::int64_t j = 0; j < c.n; ++j)
    for (std::int64_t i = 0; i < c.m; ++i) {
      const std::int64_t* ai = &a[i * c.k];
      const std::int64_t* bj = &b[j * c.k];
      std::int64_t s = 0;
      for (std::int64_t p = 0; p < c.k; ++p) s += ai[p] * bj[p];
      out[i + j * c.m] = s;
    }
  return out;
}

void reference_product(const GemmCase& c, std::vector<double>& value, std::vector<double>& abs_sum) {
  value.assign(static_cast<std::size_t>(c.m * c.n), 0);
  abs_sum.assign(value.size(), 0);
  for (std::int64_t j = 0; j < c.n; ++j)
    for (std::int64_t i = 0; i < c.m; ++i) {
      const double* ai = &c.a_value[i * c.k];
      const double* bj = &c.b_value[j * c.k];
      double s = 0, s_abs = 0;
      for (std::int64_t p = 0; p < c.k; ++p) {
        s += ai[p] * bj[p];
        s_abs += std::fabs(ai[p] * bj[p]);
      }
      value[i + j * c.m] = s;
      abs_sum[i + j * c.m] = s_abs;
    }
}

GemmCheck check_exact(const GemmCase& c, const std::vector<std::int64_t>& want, const std::vector<float>& got) {
  GemmCheck r;
  if (rule_disabled("probe.gemm_exact")) return r;  // gpucheck selftest's hook (core/rule_switch.h)
  for (std::size_t e = 0; e < want.size(); ++e) {
    double g = e < got.size() ? got[e] : std::nan("");
    if (g == static_cast<double>(want[e])) continue;
    r.ok = false;
    ++r.wrong;
    double excess = std::isnan(g) ? INFINITY : std::fabs(g - static_cast<double>(want[e]));
    if (excess > r.worst_excess) r.worst_excess = excess;
    if (r.first.empty()) {
      std::ostringstream s;
      s << element(c, static_cast<std::int64_t>(e) % c.m, static_cast<std::int64_t>(e) / c.m) << " = " << g
        << ", exact " << want[e];
      r.first = s.str();
    }
  }
  return r;
}

GemmCheck check_tolerance(const GemmCase& c, const std::vector<double>& want, const std::vector<double>& abs_sum,
                          const std::vector<float>& got, double tolerance) {
  GemmCheck r;
  if (rule_disabled("probe.gemm_tolerance")) return r;  // gpucheck selftest's hook (core/rule_switch.h)
  for (std::size_t e = 0; e < want.size(); ++e) {
    double g = e < got.size() ? got[e] : std::nan("");
    // The smallest fp32 normal keeps the bound meaningful for an all-zero row.
    double allowed = tolerance * abs_sum[e] + 1.2e-38;
    double err = std::fabs(g - want[e]);
    double excess = std::isnan(err) ? INFINITY : err / allowed;
    if (excess > r.worst_excess) r.worst_excess = excess;
    if (excess <= 1) continue;
    r.ok = false;
    ++r.wrong;
    if (r.first.empty()) {
      std::ostringstream s;
      s.precision(9);
      s << element(c, static_cast<std::int64_t>(e) % c.m, static_cast<std::int64_t>(e) / c.m) << " = " << g
        << ", reference " << want[e] << ", allowed +-" << allowed;
      r.first = s.str();
    }
  }
  return r;
}

}  // namespace gpucheck::kernels
