#pragma once
// Installed Python package versions read from `*.dist-info` / `*.egg-info` metadata, without importing
// anything: that is how pip itself knows them, and it works under --root where nothing may run.
#include <map>
#include <string>
#include <vector>

#include "platform/root_fs.h"

namespace gpucheck::platform {

/// PEP 503 normalisation: lower case, runs of "-", "_", "." become "-" ("Flash_Attn" -> "flash-attn").
std::string normalize_package_name(const std::string& name);

/// Splits "nvidia_cuda_nvcc_cu12-12.1.105.dist-info" into {"nvidia-cuda-nvcc-cu12", "12.1.105"};
/// {"", ""} when the name is not a dist-info/egg-info directory name.
std::pair<std::string, std::string> parse_dist_info_name(const std::string& dirname);

/// Every package in `dir` (a site-packages, or a wheel-assembled toolkit's dist-info/): normalised name ->
/// version. The directory name gives both; METADATA's "Version:" is read only when the name lacks one.
std::map<std::string, std::string> read_dist_infos(const RootFs& fs, const std::string& dir);

/// One distribution's metadata: what `pip check` reads of it.
struct DistInfo {
  std::string name;     // normalised
  std::string version;  // METADATA's Version:, else the directory name's
  std::vector<std::string> requires_dist;  // Requires-Dist lines (egg-info: requires.txt before any [section])
  std::string dir;      // the .dist-info / .egg-info directory (guest path)
};

/// Every distribution in `site_packages`, in directory order.
std::vector<DistInfo> read_distributions(const RootFs& fs, const std::string& site_packages);

/// One RECORD row: the path as written (relative to site-packages, or absolute) and "sha256=<urlsafe b64>".
struct RecordEntry {
  std::string path;
  std::string hash;
  long long size = -1;  // -1 when RECORD gives none
};

/// The RECORD of a .dist-info directory (CSV with quoting); empty when it has none.
std::vector<RecordEntry> read_record(const RootFs& fs, const std::string& dist_info_dir);

/// The file's digest in RECORD's form, "sha256=" + urlsafe base64 without padding; "" when unreadable.
/// Streams the file (libnccl is 200 MB), never holding it whole.
std::string record_hash_of_file(const RootFs& fs, const std::string& guest_path);

}  // namespace gpucheck::platform
