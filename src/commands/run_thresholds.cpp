#include "commands/run_thresholds.h"

#include <cstdlib>

#include "core/errors.h"
#include "core/paths.h"
#include "inventory/gpu_info.h"
#include "model/report.h"

namespace gpucheck::commands {
using model::read_report_file;
using model::Report;
using model::Section;

namespace {

unsigned parse_pci_id(const std::string& s) {
  if (s.size() < 3 || s.compare(0, 2, "0x") != 0) return 0;
  char* end = nullptr;
  unsigned long v = std::strtoul(s.c_str() + 2, &end, 16);
  return end && *end == '\0' && v <= 0xffff ? static_cast<unsigned>(v) : 0;
}

acceptance::GpuIdentity identity_of(const inventory::Gpu& g) {
  return {std::to_string(g.index), g.uuid, g.pci_bus_id, g.name, parse_pci_id(g.pci_device_id)};
}

}  // namespace

std::vector<acceptance::GpuIdentity> gpu_identities_from_inventory(const nlohmann::json& inventory) {
  std::vector<acceptance::GpuIdentity> out;
  if (!inventory.is_object() || !inventory.contains("gpus") || !inventory["gpus"].is_array()) return out;
  for (const auto& g : inventory["gpus"]) {
    if (!g.is_object()) continue;
    acceptance::GpuIdentity id;
    if (g.contains("index") && g["index"].is_number_integer()) id.index = std::to_string(g["index"].get<long long>());
    if (g.contains("uuid") && g["uuid"].is_string()) id.uuid = g["uuid"].get<std::string>();
    if (g.contains("pci_bus_id") && g["pci_bus_id"].is_string()) id.pci_bus_id = g["pci_bus_id"].get<std::string>();
    if (g.contains("name") && g["name"].is_string()) id.name = g["name"].get<std::string>();
    if (g.contains("pci_device_id") && g["pci_device_id"].is_string()) id.pci_device_id = parse_pci_id(g["pci_device_id"].get<std::string>());
    out.push_back(id);
  }
  return out;
}

RunThresholds prepare_run_thresholds(const std::string& config_path, const std::string& baseline_path) {
  RunThresholds t;
  if (!config_path.empty()) t.config = acceptance::load_threshold_config(config_path);
  if (!baseline_path.empty()) {
    Report base = read_report_file(baseline_path);
    if (base.meta.command != "run") throw InputError("--baseline " + baseline_path + ": a '" + base.meta.command +
                                                     "' report, not a 'gpucheck run' report");
    if (const Section* s = base.find_section("probes")) t.baseline = s->findings;
    t.baseline_gpus = gpu_identities_from_inventory(base.inventory);
    t.baseline_origin = baseline_path;
  }
  return t;
}

std::vector<Finding> judge_run_thresholds(const std::vector<Finding>& probe_findings, const RunThresholds& prepared) {
  bool any = false;
  for (const auto& f : probe_findings)
    for (const auto& d : f.devices)
      for (const auto& m : d.metrics) any = any || acceptance::find_contract_metric(f.id, m.name);
  if (!any) return {};
  acceptance::ThresholdInput in;
  in.findings = probe_findings;
  in.catalog = acceptance::load_device_catalog(data_path("devices"), data_path("links/pcie.json"));
  in.config = prepared.config;
  in.baseline = prepared.baseline;
  in.baseline_gpus = prepared.baseline_gpus;
  in.baseline_origin = prepared.baseline_origin;
  for (const auto& g : inventory::read_gpus(std::getenv("CUDA_VISIBLE_DEVICES")).gpus) in.gpus.push_back(identity_of(g));
  return acceptance::judge_thresholds(in);
}

}  // namespace gpucheck::commands
