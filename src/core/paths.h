#pragma once
// Where an installed (or built) gpucheck finds its probes and data: relative to its own executable, so a
// .tar.gz unpacked anywhere works. GPUCHECK_PROBE_DIR / GPUCHECK_DATA_DIR override both.
#include <string>

namespace gpucheck {

/// Absolute path of the running executable (/proc/self/exe).
std::string self_executable();
std::string probe_dir();
std::string data_dir();
/// data_dir() + "/" + relative; does not check existence.
std::string data_path(const std::string& relative);

}  // namespace gpucheck
