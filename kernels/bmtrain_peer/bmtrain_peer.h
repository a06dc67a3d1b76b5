#pragma once
// Runs an installed BMTrain's native kernels as a peer of ours. The selected Python loads bmtrain/C*.so
// directly (importlib's ExtensionFileLoader, so the package's torch-importing __init__ is not needed) and
// calls its launchers on buffers we write; we compare its outputs with our reference and our kernels.
#include <optional>
#include <string>
#include <vector>

#include "adam/adam_reference.h"
#include "common/tolerance.h"

namespace gpucheck::kernels::bmtrain {

struct Install {
  bool python_ok = false;
  std::string python_error;          // why the interpreter could not be run
  std::string python, python_version;
  bool found = false;                // importlib.util.find_spec('bmtrain') found a package
  std::string version;               // importlib.metadata.version('bmtrain'), "" if unknown
  std::string package_dir;
  std::vector<std::string> native_modules;  // bmtrain/C*.so
  bool import_ok = false;
  std::string import_error;          // "ModuleNotFoundError: No module named 'torch'"
};

/// Asks `python` (a path or a name on PATH) where bmtrain is, without failing when it is absent.
Install locate(const std::string& python);

struct PeerRun {
  bool ran = false;
  std::string error;                 // loading the module or calling the launcher failed: the message
  AdamState result;                  // BMTrain's outputs (after the first call)
  double seconds = 0;                // best wall time of one launcher call, measured inside Python
};

/// Calls adam_cpu_{fp16,bf16}_launcher of `native_module` on `before` (variant kOffloadFp16/kOffloadBf16)
/// `repeats` times (outputs are those of the first call; `seconds` the fastest call, for benchmarks).
PeerRun run_cpu_adam(const std::string& python, const std::string& native_module, const AdamState& before,
                     const AdamHyper& h, int repeats = 1);

/// Fraction of elements whose bf16 param copy equals the truncation (not the rounding) of the fp32 master.
double bf16_truncated_fraction(const AdamState& s);

}  // namespace gpucheck::kernels::bmtrain
