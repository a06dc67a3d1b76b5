#include "hwmon/nvml_library.h"

#include <cstdlib>

namespace gpucheck::kernels {

NvmlLibrary::NvmlLibrary(const std::vector<std::string>& required) {
  const char* env = std::getenv("GPUCHECK_NVML");
  name_ = env && *env ? env : "libnvidia-ml.so.1";
  handle_ = open_library(name_, load_error_);
  if (!handle_) return;
  path_ = loaded_path(handle_, name_);
  std::vector<std::string> names{"nvmlInit_v2"};
  names.insert(names.end(), required.begin(), required.end());
  for (const auto& n : names)
    if (!find_symbol(handle_, n.c_str())) missing_.push_back(n);
  if (!missing_.empty()) return;
  init_status_ = get<int (*)()>("nvmlInit_v2")();
}

NvmlLibrary::~NvmlLibrary() {
  if (!ok()) return;
  if (auto shutdown = get<int (*)()>("nvmlShutdown")) shutdown();
  // The library stays mapped: NVML's own threads may outlive shutdown briefly.
}

std::string NvmlLibrary::why() const {
  if (!handle_) return load_error_;
  if (!missing_.empty()) {
    std::string list;
    for (const auto& m : missing_) list += (list.empty() ? "" : ", ") + m;
    return path_ + " lacks " + list + " (not a usable NVML)";
  }
  if (!ok()) return "nvmlInit_v2 returned " + std::to_string(init_status_);
  return "";
}

}  // namespace gpucheck::kernels
