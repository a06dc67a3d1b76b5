#pragma once
// Which GPU gets native SASS, which needs PTX JIT (and whether its driver can JIT that PTX ISA), and which
// gets nothing (cudaErrorNoKernelImageForDevice), from the entries of an object's fat binaries.
#include <map>
#include <string>
#include <vector>

#include "checks/abi/fatbin.h"

namespace gpucheck::abi {

struct GpuTarget {
  std::string label;          // "sm_90", "GPU 0 (NVIDIA H100)"
  int cc_major = 0, cc_minor = 0;
  int driver_cuda = 0;        // cuDriverGetVersion form (12040); 0 when unknown
};

enum class KernelVerdict { kNative, kPtxJit, kPtxTooNew, kNone };
const char* to_string(KernelVerdict v);

struct GpuVerdict {
  GpuTarget gpu;
  KernelVerdict verdict = KernelVerdict::kNone;
  std::string using_target;   // "sm_90" / "compute_80"
  std::string detail;         // human sentence with the predicted error when there is one
};

/// PTX ISA "9.0" -> minimum CUDA "13.0", from data/abi/cuda_compat.json.
class PtxIsaTable {
 public:
  static PtxIsaTable load();  // from the data dir; empty table when unavailable
  /// Minimum driver CUDA version (12040 form) for a PTX ISA version; 0 when unknown.
  int min_cuda(unsigned major, unsigned minor) const;

  std::map<std::string, std::string> table;
};

/// Parses "sm_90", "90", "9.0", "compute_90" into a GPU target.
GpuTarget parse_gpu_spec(const std::string& spec);

GpuVerdict judge(const GpuTarget& gpu, const std::vector<FatbinEntry>& entries, const PtxIsaTable& ptx);

}  // namespace gpucheck::abi
