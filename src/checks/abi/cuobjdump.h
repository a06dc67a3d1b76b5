#pragma once
// Cross-check of the fatbin parser against NVIDIA's cuobjdump (`--list-elf --list-ptx`), where a toolkit
// provides one (CUDA toolkit bin/, PATH, or the PyPI nvidia-cuda-cuobjdump wheel).
#include <string>
#include <vector>

namespace gpucheck::abi {

struct CuobjdumpListing {
  bool ran = false;
  std::string error;              // why it did not run or failed
  std::vector<std::string> sass;  // "sm_80", "sm_90a" in listing order
  std::vector<std::string> ptx;   // "sm_90" (cuobjdump names PTX by the sm it targets)
};

/// First cuobjdump found: $CUDA_HOME/bin, /usr/local/cuda/bin, PATH; "" when none.
std::string find_cuobjdump();

CuobjdumpListing run_cuobjdump(const std::string& cuobjdump, const std::string& file);

/// Parses cuobjdump's "ELF file    1: name.1.sm_80.cubin" / "PTX file    1: name.1.sm_90.ptx" lines.
CuobjdumpListing parse_cuobjdump_listing(const std::string& text);

}  // namespace gpucheck::abi
