#include "inventory/gpu_info.h"

#include <cstdio>

#include "core/text.h"
#include "inventory/device_helper.h"

namespace gpucheck::inventory {

namespace {

std::string enabled(long long state) { return state == 1 ? "enabled" : "disabled"; }

int int_field(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number_integer() ? it->get<int>() : 0;
}

}  // namespace

std::vector<Gpu> apply_visible_devices(const std::vector<Gpu>& all, const std::string& value) {
  std::vector<Gpu> out;
  for (auto entry : split(value, ',')) {
    entry = trim(entry);
    if (entry.empty()) break;
    const Gpu* match = nullptr;
    if (std::isdigit(static_cast<unsigned char>(entry[0]))) {
      char* end = nullptr;
      long i = std::strtol(entry.c_str(), &end, 10);
      if (*end != '\0' || i < 0 || static_cast<std::size_t>(i) >= all.size()) break;  // invalid: stop here
      match = &all[static_cast<std::size_t>(i)];
    } else {
      std::string want = starts_with(entry, "GPU-") ? entry : "GPU-" + entry;
      for (const auto& g : all)
        if (starts_with(g.uuid, want)) {
          if (match) return out;  // ambiguous prefix: the runtime stops too
          match = &g;
        }
      if (!match) break;
    }
    Gpu g = *match;
    g.index = static_cast<int>(out.size());
    out.push_back(g);
  }
  return out;
}

GpuScan read_gpus(const char* cuda_visible_devices) {
  return gpus_from_helper(ask_device_helper({"nvml"}), cuda_visible_devices);
}

GpuScan gpus_from_helper(const DeviceHelperReply& reply, const char* cuda_visible_devices) {
  GpuScan scan;
  std::vector<Gpu> all;
  bool done = false;
  for (const auto& j : reply.lines) {
    if (j.contains("nvml_error")) scan.error = json_string(j, "nvml_error");
    if (j.contains("driver_version")) scan.driver_version = json_string(j, "driver_version");
    if (j.contains("nvml_done")) done = true;
    auto it = j.find("gpu");
    if (it == j.end() || !it->is_object()) continue;
    const auto& d = *it;
    Gpu g;
    g.index = g.nvml_index = int_field(d, "index");
    g.source = "NVML (libnvidia-ml.so.1)";
    g.name = json_string(d, "name");
    g.uuid = json_string(d, "uuid");
    g.pci_bus_id = json_string(d, "pci_bus_id");
    if (d.contains("pci_device_id")) {
      char id[16];
      std::snprintf(id, sizeof id, "0x%04x", static_cast<unsigned>(int_field(d, "pci_device_id")) & 0xffffu);
      g.pci_device_id = id;
    }
    g.cc_major = int_field(d, "cc_major");
    g.cc_minor = int_field(d, "cc_minor");
    if (auto m = d.find("memory_total_bytes"); m != d.end() && m->is_number_unsigned()) g.memory_total_bytes = m->get<std::uint64_t>();
    if (d.contains("ecc")) g.ecc_mode = enabled(int_field(d, "ecc"));
    if (d.contains("persistence")) g.persistence_mode = enabled(int_field(d, "persistence"));
    if (d.contains("mig")) g.mig_mode = enabled(int_field(d, "mig"));
    g.sm_clock_max_mhz = int_field(d, "sm_clock_max_mhz");
    g.mem_clock_max_mhz = int_field(d, "mem_clock_max_mhz");
    g.pcie_gen_current = int_field(d, "pcie_gen_current");
    g.pcie_gen_max = int_field(d, "pcie_gen_max");
    g.pcie_width_current = int_field(d, "pcie_width_current");
    g.pcie_width_max = int_field(d, "pcie_width_max");
    all.push_back(g);
  }
  // A helper that died after listing some GPUs: keep them, and say why the list may be short.
  if (scan.error.empty() && !done) scan.error = reply.failure.empty() ? "gpucheck-gpuinfo stopped early" : reply.failure;
  scan.gpus = cuda_visible_devices ? apply_visible_devices(all, cuda_visible_devices) : all;
  return scan;
}

}  // namespace gpucheck::inventory
