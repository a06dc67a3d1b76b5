#include "core/paths.h"

#include <cstdlib>
#include <filesystem>

#include "gpucheck/build_info.h"

namespace gpucheck {

namespace fs = std::filesystem;

std::string self_executable() {
  std::error_code ec;
  auto p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : p.string();
}

namespace {
// The bin directory of this installation, also when the running executable is a probe in the probe
// directory (a probe run by hand finds the knowledge base like the runner does).
fs::path bin_dir() {
  fs::path dir = fs::path(self_executable()).parent_path();
  fs::path bin = (dir / ".." / ".." / "bin").lexically_normal();  // <prefix>/libexec/gpucheck -> <prefix>/bin
  if ((bin / build::kProbeDirFromBin).lexically_normal() == dir.lexically_normal() && fs::is_directory(bin)) return bin;
  return dir;
}
std::string relative_to_bin(const char* env_name, const char* relative) {
  if (const char* v = std::getenv(env_name); v && *v) return v;
  return (bin_dir() / relative).lexically_normal().string();
}
}  // namespace

std::string probe_dir() { return relative_to_bin("GPUCHECK_PROBE_DIR", build::kProbeDirFromBin); }
std::string data_dir() { return relative_to_bin("GPUCHECK_DATA_DIR", build::kDataDirFromBin); }
std::string data_path(const std::string& relative) { return data_dir() + "/" + relative; }

}  // namespace gpucheck
