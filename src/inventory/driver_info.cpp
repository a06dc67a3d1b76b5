#include "inventory/driver_info.h"

#include <algorithm>

#include "core/text.h"
#include "knowledge/text_pattern.h"
#include "inventory/device_helper.h"
#include "inventory/library_scan.h"

namespace gpucheck::inventory {

std::string parse_proc_driver_version(const std::string& text) {
  // Proprietary: "Kernel Module  550.54.15"; open: "Open Kernel Module for x86_64  550.54.15".
  // Without the literal nothing can match: no pattern is compiled (2 M instructions, a tenth of
  // `gpucheck abi` on a machine without the driver; issue 21).
  if (text.find("Kernel Module") == std::string::npos) return "";
  static const knowledge::TextPattern re(
      R"(Kernel Module(?:[[:space:]]+for[[:space:]]+[^[:space:]]+)?[[:space:]]+([0-9]+\.[0-9]+(?:\.[0-9]+)?))");
  auto m = re.search(text);
  return m ? m->str(1) : "";
}

namespace {

// libcuda.so.1 -> libcuda.so.550.54.15: the real file's name carries the driver version.
// libcuda.so.550.54.15 -> "550.54.15"; the SONAME's own "1" is not a driver version.
std::string version_from_libcuda_name(const std::string& path) {
  std::string name = base_name(path);
  if (!starts_with(name, "libcuda.so.")) return "";
  std::string v = version_from_file_name(name);
  return v.find('.') == std::string::npos ? "" : v;
}

void read_live_libcuda(Driver& d, const DeviceHelperReply& reply) {
  for (const auto& j : reply.lines) {
    if (auto e = j.find("libcuda_error"); e != j.end() && e->is_string()) d.error = e->get<std::string>();
    auto it = j.find("libcuda");
    if (it == j.end() || !it->is_object()) continue;
    if (auto p = it->find("path"); p != it->end() && p->is_string()) d.library_path = p->get<std::string>();
    if (auto v = it->find("cuda_version"); v != it->end() && v->is_number_integer() && v->get<int>() > 0) {
      d.present = true;
      d.cuda_version = v->get<int>();
      d.source = "libcuda.so.1 cuDriverGetVersion";
    } else if (auto e = it->find("error"); e != it->end() && e->is_string()) {
      d.error = e->get<std::string>();
    }
    return;
  }
  if (d.error.empty()) d.error = "libcuda.so.1: " + (reply.failure.empty() ? std::string("no answer") : reply.failure);
}

}  // namespace

Driver read_driver(const platform::RootFs& fs, const platform::LdCache& ld_cache, const DeviceHelperReply* asked) {
  Driver d;
  std::string proc = fs.read("/proc/driver/nvidia/version", 4096);
  d.kernel_module_version = parse_proc_driver_version(proc);
  if (fs.live()) {
    // In the helper process: libcuda's constructor never runs inside gpucheck. A shared reply that
    // ended (NVML crashed it) before libcuda was asked is asked again, alone.
    bool answered = asked && std::any_of(asked->lines.begin(), asked->lines.end(), [](const nlohmann::json& j) {
                      return j.contains("libcuda") || j.contains("libcuda_error");
                    });
    read_live_libcuda(d, answered ? *asked : ask_device_helper({"libcuda"}));
  } else {
    // Files only: find libcuda.so.1 the way the loader would (ld.so.cache, then the usual directories).
    d.library_path = ld_cache.lookup("libcuda.so.1").value_or("");
    for (const char* dir : {"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/local/nvidia/lib64", "/lib/x86_64-linux-gnu"})
      if (d.library_path.empty() && fs.exists(path_join(dir, "libcuda.so.1"))) d.library_path = path_join(dir, "libcuda.so.1");
    if (d.library_path.empty()) d.error = "no libcuda.so.1 under " + fs.root();
  }
  if (!d.library_path.empty()) {
    if (auto v = version_from_libcuda_name(fs.resolve(d.library_path)); !v.empty()) {
      d.version = v;
      if (!fs.live()) d.present = true, d.source = "libcuda.so.1 -> " + base_name(fs.resolve(d.library_path));
    }
  }
  if (!d.kernel_module_version.empty()) {
    d.version = d.kernel_module_version;  // what is actually running wins over the user-space file
    if (d.source.empty()) d.source = "/proc/driver/nvidia/version";
    else d.source += ", /proc/driver/nvidia/version";
    d.present = true;
  }
  if (d.present && !d.error.empty() && d.cuda_version == 0 && fs.live()) {
    // Kernel module loaded but libcuda not loadable: keep the reason, it is the interesting part.
  } else if (d.present) {
    d.error.clear();
  }
  return d;
}

namespace {
// "libcuda.so.1: cannot open shared object file: No such file or directory": the library is not installed.
bool library_absent(const std::string& error, const std::string& soname) {
  return error.rfind(soname + ": cannot open shared object file", 0) == 0;
}
}  // namespace

std::vector<std::string> driver_notes(const Driver& driver, const std::string& gpu_error) {
  const bool no_libcuda = !driver.present && library_absent(driver.error, "libcuda.so.1");
  const bool no_nvml = library_absent(gpu_error, "libnvidia-ml.so.1");
  std::vector<std::string> out;
  if (no_libcuda && no_nvml) return {"driver: none installed (the loader finds neither libcuda.so.1 nor libnvidia-ml.so.1)"};
  if (!gpu_error.empty())
    out.push_back("GPUs: " + (no_nvml ? std::string("no NVML (libnvidia-ml.so.1 is not installed)") : gpu_error));
  if (!driver.present)
    out.push_back("driver: " + (no_libcuda ? std::string("none installed (the loader finds no libcuda.so.1)")
                                           : driver.error.empty() ? std::string("not found") : driver.error));
  return out;
}

void adopt_driver_library_mismatch(Driver& driver, const std::string& gpu_error) {
  if (says_driver_library_mismatch(gpu_error) && !says_driver_library_mismatch(driver.error)) {
    driver.error = "NVML: " + gpu_error;
    if (driver.source.empty()) driver.source = "libnvidia-ml.so.1 nvmlInit_v2";
  }
}

}  // namespace gpucheck::inventory
