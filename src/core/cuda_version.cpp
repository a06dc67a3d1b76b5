#include "core/cuda_version.h"

namespace gpucheck {

std::string cuda_int_to_string(int v) {
  if (v <= 0) return "";
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

}  // namespace gpucheck
