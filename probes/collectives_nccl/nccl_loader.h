#pragma once
// Where collectives.nccl's libnccl.so.2 comes from. A normal build links it (the loader finds it, or the
// probe does not start); the wheel's build (GPUCHECK_NCCL_DLOPEN) carries no NCCL and opens the node's at
// run time: the loader path first, then the nvidia-nccl-cu* wheel (torch's NCCL) of the Python environment
// gpucheck judges, so a venv or conda env with torch in it needs nothing on LD_LIBRARY_PATH.
#include <string>

namespace gpucheck::collectives {

/// Makes the NCCL API callable. Returns "" when it is, else the exact reason it is not (the probe skips with
/// it): which files and folders were tried and what dlopen/dlsym said.
std::string load_nccl();

/// The file that defines the NCCL API this process calls ("" when unknown).
std::string nccl_library_file();

}  // namespace gpucheck::collectives
