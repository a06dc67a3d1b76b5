#include "collectives/dtype.h"

#include <cmath>
#include <cstring>

#include "core/errors.h"

namespace gpucheck::collectives {

std::size_t dtype_size(DType t) {
  switch (t) {
    case DType::kF16:
    case DType::kBF16: return 2;
    case DType::kF32: return 4;
    case DType::kU8: return 1;
  }
  return 1;
}

const char* to_string(DType t) {
  switch (t) {
    case DType::kF16: return "fp16";
    case DType::kBF16: return "bf16";
    case DType::kF32: return "fp32";
    case DType::kU8: return "uint8";
  }
  return "?";
}

const char* to_string(CollOp o) {
  switch (o) {
    case CollOp::kAllGather: return "all_gather";
    case CollOp::kReduceScatter: return "reduce_scatter";
    case CollOp::kAllReduce: return "all_reduce";
    case CollOp::kBroadcast: return "broadcast";
  }
  return "?";
}

const char* to_string(RedOp r) {
  switch (r) {
    case RedOp::kNone: return "none";
    case RedOp::kSum: return "sum";
    case RedOp::kMax: return "max";
    case RedOp::kAvg: return "avg";
  }
  return "?";
}

DType parse_dtype(const std::string& s) {
  if (s == "fp16" || s == "half" || s == "float16") return DType::kF16;
  if (s == "bf16" || s == "bfloat16") return DType::kBF16;
  if (s == "fp32" || s == "float" || s == "float32") return DType::kF32;
  if (s == "uint8" || s == "u8") return DType::kU8;
  throw InputError("unknown data type '" + s + "' (expected fp16, bf16, fp32 or uint8)");
}

CollOp parse_collop(const std::string& s) {
  if (s == "all_gather" || s == "all-gather" || s == "allgather") return CollOp::kAllGather;
  if (s == "reduce_scatter" || s == "reduce-scatter" || s == "reducescatter") return CollOp::kReduceScatter;
  if (s == "all_reduce" || s == "all-reduce" || s == "allreduce") return CollOp::kAllReduce;
  if (s == "broadcast" || s == "bcast") return CollOp::kBroadcast;
  throw InputError("unknown collective '" + s + "' (expected all_gather, reduce_scatter, all_reduce or broadcast)");
}

RedOp parse_redop(const std::string& s) {
  if (s == "sum") return RedOp::kSum;
  if (s == "max") return RedOp::kMax;
  if (s == "avg") return RedOp::kAvg;
  throw InputError("unknown reduction '" + s + "' (expected sum, max or avg)");
}

int significand_bits(DType t) {
  switch (t) {
    case DType::kF16: return 11;
    case DType::kBF16: return 8;
    case DType::kF32: return 24;
    case DType::kU8: return 8;
  }
  return 8;
}

bool is_float(DType t) { return t != DType::kU8; }

namespace {
std::uint32_t f2u(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float u2f(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
}  // namespace

std::uint16_t float_to_half_bits(float f) {
  std::uint32_t x = f2u(f);
  std::uint16_t sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
  std::uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u) return sign | (abs > 0x7f800000u ? 0x7e00u : 0x7c00u);  // NaN / inf
  if (abs >= 0x477ff000u) return sign | 0x7c00u;  // rounds to >= 65520: overflow to inf
  if (abs < 0x38800000u) {                          // below the smallest normal half: subnormal or zero
    if (abs < 0x33000000u) return sign;             // < 2^-25 rounds to zero
    std::uint32_t exp = abs >> 23;
    std::uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
    // value = mant * 2^(exp-150); in units of the half subnormal step 2^-24 that is mant >> (126-exp)
    int s = static_cast<int>(126 - exp);  // 14..24 here
    std::uint32_t units = mant >> s;
    std::uint32_t rem = mant & ((1u << s) - 1);
    std::uint32_t half = 1u << (s - 1);
    if (rem > half || (rem == half && (units & 1u))) ++units;
    return static_cast<std::uint16_t>(sign | units);
  }
  // normal: rebias exponent 127 -> 15, keep 10 mantissa bits with round to nearest even
  std::uint32_t rounded = abs + 0xfffu + ((abs >> 13) & 1u);
  return static_cast<std::uint16_t>(sign | ((rounded - 0x38000000u) >> 13));
}

float half_bits_to_float(std::uint16_t h) {
  std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  std::uint32_t exp = (h >> 10) & 0x1fu;
  std::uint32_t mant = h & 0x3ffu;
  if (exp == 0x1f) return u2f(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {
    float v = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -v : v;
  }
  return u2f(sign | ((exp + 112) << 23) | (mant << 13));
}

std::uint16_t float_to_bf16_bits(float f) {
  std::uint32_t x = f2u(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((x >> 16) | 0x40u);  // quiet NaN
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<std::uint16_t>(x >> 16);
}

float bf16_bits_to_float(std::uint16_t h) { return u2f(static_cast<std::uint32_t>(h) << 16); }

std::uint32_t encode(DType t, double v) {
  switch (t) {
    case DType::kF16: return float_to_half_bits(static_cast<float>(v));
    case DType::kBF16: return float_to_bf16_bits(static_cast<float>(v));
    case DType::kF32: return f2u(static_cast<float>(v));
    case DType::kU8: return static_cast<std::uint32_t>(static_cast<std::uint8_t>(v));
  }
  return 0;
}

double decode(DType t, std::uint32_t bits) {
  switch (t) {
    case DType::kF16: return half_bits_to_float(static_cast<std::uint16_t>(bits));
    case DType::kBF16: return bf16_bits_to_float(static_cast<std::uint16_t>(bits));
    case DType::kF32: return u2f(bits);
    case DType::kU8: return static_cast<double>(bits & 0xffu);
  }
  return 0;
}

std::uint32_t load_bits(DType t, const void* base, std::size_t i) {
  const auto* p = static_cast<const unsigned char*>(base);
  switch (dtype_size(t)) {
    case 1: return p[i];
    case 2: {
      std::uint16_t v;
      std::memcpy(&v, p + 2 * i, 2);
      return v;
    }
    default: {
      std::uint32_t v;
      std::memcpy(&v, p + 4 * i, 4);
      return v;
    }
  }
}

void store_bits(DType t, void* base, std::size_t i, std::uint32_t bits) {
  auto* p = static_cast<unsigned char*>(base);
  switch (dtype_size(t)) {
    case 1: p[i] = static_cast<unsigned char>(bits); break;
    case 2: {
      auto v = static_cast<std::uint16_t>(bits);
      std::memcpy(p + 2 * i, &v, 2);
      break;
    }
    default: std::memcpy(p + 4 * i, &bits, 4); break;
  }
}

}  // namespace gpucheck::collectives
