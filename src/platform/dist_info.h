#pragma once
// Installed Python package versions read from `*.dist-info` / `*.egg-info` metadata, without importing
// anything: that is how pip itself knows them, and it works under --root where nothing may run.
#include <map>
#include <string>

#include "platform/root_fs.h"

namespace gpucheck::inventory {

/// PEP 503 normalisation: lower case, runs of "-", "_", "." become "-" ("Flash_Attn" -> "flash-attn").
std::string normalize_package_name(const std::string& name);

/// Splits "nvidia_cuda_nvcc_cu12-12.1.105.dist-info" into {"nvidia-cuda-nvcc-cu12", "12.1.105"};
/// {"", ""} when the name is not a dist-info/egg-info directory name.
std::pair<std::string, std::string> parse_dist_info_name(const std::string& dirname);

/// Every package in `dir` (a site-packages, or a wheel-assembled toolkit's dist-info/): normalised name ->
/// version. The directory name gives both; METADATA's "Version:" is read only when the name lacks one.
std::map<std::string, std::string> read_dist_infos(const RootFs& fs, const std::string& dir);

}  // namespace gpucheck::inventory
