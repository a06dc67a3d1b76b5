#include "collectives/host_reduce.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace gpucheck::collectives {

namespace {
template <typename Fn>
void each(DType t, void* inout, const void* in, std::size_t n, Fn fn) {
  for (std::size_t i = 0; i < n; ++i) {
    double a = decode(t, load_bits(t, inout, i));
    double b = decode(t, load_bits(t, in, i));
    store_bits(t, inout, i, encode(t, fn(a, b)));
  }
}
}  // namespace

void reduce_into(DType t, RedOp op, void* inout, const void* in, std::size_t n) {
  if (t == DType::kF32) {
    // single-precision arithmetic, so rounding happens where a GPU's fp32 adds round
    auto* a = static_cast<float*>(inout);
    const auto* b = static_cast<const float*>(in);
    if (op == RedOp::kMax) for (std::size_t i = 0; i < n; ++i) a[i] = std::max(a[i], b[i]);
    else for (std::size_t i = 0; i < n; ++i) a[i] = a[i] + b[i];
    return;
  }
  if (t == DType::kU8) {
    auto* a = static_cast<std::uint8_t*>(inout);
    const auto* b = static_cast<const std::uint8_t*>(in);
    if (op == RedOp::kMax) for (std::size_t i = 0; i < n; ++i) a[i] = std::max(a[i], b[i]);
    else for (std::size_t i = 0; i < n; ++i) a[i] = static_cast<std::uint8_t>(a[i] + b[i]);
    return;
  }
  // fp16 / bf16: one float operation, rounded back to the 16-bit type
  if (op == RedOp::kMax) each(t, inout, in, n, [](double a, double b) { return std::max(a, b); });
  else each(t, inout, in, n, [](double a, double b) { return static_cast<double>(static_cast<float>(a) + static_cast<float>(b)); });
}

void scale_in_place(DType t, void* data, std::size_t n, double factor) {
  for (std::size_t i = 0; i < n; ++i)
    store_bits(t, data, i, encode(t, static_cast<float>(decode(t, load_bits(t, data, i))) * static_cast<float>(factor)));
}

}  // namespace gpucheck::collectives
