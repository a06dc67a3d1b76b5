#pragma once
// Finds every CUDA toolkit on the machine (CUDA_HOME, CUDA_PATH, nvcc on PATH, /usr/local/cuda*, /opt/cuda*,
// conda environments, pip `nvidia-cuda-nvcc*` packages) and reads each one's version from files.
#include <map>
#include <string>
#include <vector>

#include "inventory/model.h"
#include "platform/root_fs.h"

namespace gpucheck::inventory {

using EnvMap = std::map<std::string, std::string>;

struct ToolkitScanInput {
  EnvMap env;                               // the environment the consumers would see
  std::vector<std::string> site_packages;   // of every Python found, for pip nvidia-cuda-nvcc*
  std::vector<std::string> conda_roots;     // conda installations/environments to look into
  bool allow_exec = true;                   // may run `nvcc --version` (never under --root)
};

std::vector<Toolkit> scan_toolkits(const platform::RootFs& fs, const ToolkitScanInput& in);

/// Reads the version of the toolkit at `root` (version.json, version.txt, dist-info, conda-meta, cuda.h,
/// then `nvcc --version` when allowed). Sets version and version_source; leaves them empty when unknown.
void read_toolkit_version(const platform::RootFs& fs, Toolkit& tk, bool allow_exec);

/// "CUDA Version 11.0.228" -> "11.0.228".
std::string parse_version_txt(const std::string& text);
/// version.json's "cuda" entry version ("12.1.1"); "" when absent.
std::string parse_version_json(const std::string& text);
/// `#define CUDA_VERSION 12010` -> "12.1".
std::string parse_cuda_h_version(const std::string& text);
/// "Cuda compilation tools, release 12.1, V12.1.105" -> "12.1.105".
std::string parse_nvcc_version(const std::string& text);

}  // namespace gpucheck::inventory
