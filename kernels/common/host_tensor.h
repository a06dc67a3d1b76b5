#pragma once
// A host buffer in one of the storage dtypes the kernels use, read and written through double so the
// references can compute in double and apply exactly the storage rounding of the dtype on the way back.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpucheck::kernels {

enum class Dtype { kFp16, kBf16, kFp32 };
const char* to_string(Dtype d);
std::size_t element_size(Dtype d);

class HostTensor {
 public:
  HostTensor() = default;
  HostTensor(Dtype dtype, std::size_t n);

  Dtype dtype() const { return dtype_; }
  std::size_t size() const { return n_; }
  std::size_t bytes() const { return n_ * element_size(dtype_); }
  void* data() { return dtype_ == Dtype::kFp32 ? static_cast<void*>(f32_.data()) : static_cast<void*>(u16_.data()); }
  const void* data() const { return dtype_ == Dtype::kFp32 ? static_cast<const void*>(f32_.data()) : u16_.data(); }

  double get(std::size_t i) const;
  /// Stores v rounded to the dtype: double -> float (RNE) -> fp16/bf16 (RNE).
  void set(std::size_t i, double v);
  std::uint16_t* u16() { return u16_.data(); }
  const std::uint16_t* u16() const { return u16_.data(); }
  float* f32() { return f32_.data(); }
  const float* f32() const { return f32_.data(); }
  /// One unit in the last place of this dtype at magnitude |x| (the spacing of representable values).
  double ulp(double x) const;

 private:
  Dtype dtype_ = Dtype::kFp32;
  std::size_t n_ = 0;
  std::vector<std::uint16_t> u16_;
  std::vector<float> f32_;
};

/// Spacing of representable values at |x| for each format (normal range; subnormal spacing below it).
double ulp_fp32(double x);
double ulp_fp16(double x);
double ulp_bf16(double x);
double ulp_of(Dtype d, double x);

}  // namespace gpucheck::kernels
