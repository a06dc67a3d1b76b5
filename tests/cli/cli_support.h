#pragma once
// Runs the real gpucheck binary for CLI tests.
#include <filesystem>
#include <string>
#include <vector>

#include "core/subprocess.h"

namespace gpucheck::test {

inline std::string gpucheck_binary() { return std::string(GPUCHECK_STAGE_BIN) + "/gpucheck"; }

inline SubprocessResult gpucheck(std::vector<std::string> args, SubprocessOptions o = {}) {
  args.insert(args.begin(), gpucheck_binary());
  if (o.timeout == std::chrono::milliseconds(std::chrono::seconds(60))) o.timeout = std::chrono::seconds(300);
  return run_subprocess(args, o);
}

inline std::filesystem::path fresh_temp_dir(const std::string& tag) {
  auto d = std::filesystem::temp_directory_path() / ("gpucheck-" + tag + "-" + std::to_string(getpid()));
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

/// scripts/validate-json SCHEMA FILE: "" when valid, else its messages.
inline std::string schema_errors(const std::string& schema, const std::string& file) {
  auto r = run_subprocess({std::string(GPUCHECK_SOURCE_DIR) + "/scripts/validate-json",
                           std::string(GPUCHECK_SOURCE_DIR) + "/reports/schema/" + schema, file});
  return r.ok() ? "" : r.describe() + ": " + r.out + r.err;
}

inline bool nvidia_driver_loaded() { return std::filesystem::exists("/proc/driver/nvidia/version"); }

}  // namespace gpucheck::test
