#pragma once
// Element types the collectives probe moves and reduces, with exact host conversions for the 16-bit
// floating types (the host has no native fp16/bf16 arithmetic; the values we use are exactly representable,
// but the conversions still round to nearest even so they are correct for any input).
#include <cstddef>
#include <cstdint>
#include <string>

namespace gpucheck::collectives {

enum class DType { kF16, kBF16, kF32, kU8 };
enum class CollOp { kAllGather, kReduceScatter, kAllReduce, kBroadcast };
enum class RedOp { kNone, kSum, kMax, kAvg };

std::size_t dtype_size(DType t);
const char* to_string(DType t);   // "fp16", "bf16", "fp32", "uint8"
const char* to_string(CollOp o);  // "all_gather", ...
const char* to_string(RedOp r);   // "none", "sum", "max", "avg"
/// Throws InputError naming the accepted values.
DType parse_dtype(const std::string& s);
CollOp parse_collop(const std::string& s);
RedOp parse_redop(const std::string& s);

/// Bits of the significand including the implicit one (11, 8, 24); 8 for uint8 (its whole range).
int significand_bits(DType t);
bool is_float(DType t);

std::uint16_t float_to_half_bits(float f);  // round to nearest even, inf/NaN preserved
float half_bits_to_float(std::uint16_t h);
std::uint16_t float_to_bf16_bits(float f);  // round to nearest even (not truncation)
float bf16_bits_to_float(std::uint16_t h);

/// Encodes `v` (which the caller guarantees is representable, or accepts rounding) as the dtype's bits.
std::uint32_t encode(DType t, double v);
double decode(DType t, std::uint32_t bits);

/// Element `i` of a raw buffer as bits, and the reverse.
std::uint32_t load_bits(DType t, const void* base, std::size_t i);
void store_bits(DType t, void* base, std::size_t i, std::uint32_t bits);

}  // namespace gpucheck::collectives
