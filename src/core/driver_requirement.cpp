#include "core/driver_requirement.h"

#include <exception>

#include "core/cuda_version.h"
#include "core/files.h"
#include "core/paths.h"

namespace gpucheck {

std::string driver_requirement(int runtime, int driver) {
  const std::string cuda = cuda_int_to_string(runtime);
  std::string floor;
  try {
    const nlohmann::json doc = read_json_file(data_path("compat/driver.json"));
    for (const auto& row : doc.at("toolkit_min_driver"))
      if (row.value("cuda", "") == cuda) floor = row.value("min_driver", "");
  } catch (const std::exception&) {
    // No table (a probe run outside its installation): say what is known without the number.
  }
  std::string s = "CUDA " + (cuda.empty() ? std::string("?") : cuda) + " needs " +
                  (floor.empty() ? "a newer NVIDIA driver" : "NVIDIA driver >= " + floor);
  if (driver <= 0) return s + "; no NVIDIA driver is loaded here (libcuda.so.1)";
  return s + "; the driver here supports only CUDA " + cuda_int_to_string(driver);
}

}  // namespace gpucheck
