#include "core/pcie_rates.h"

#include <cmath>

#include "core/errors.h"
#include "core/files.h"

namespace gpucheck {

std::optional<double> PcieRates::link_GBps(unsigned gen, unsigned width) const {
  if (gen == 0 || gen >= lane_GBps.size() || lane_GBps[gen] <= 0 || width == 0) return std::nullopt;
  return lane_GBps[gen] * width;
}

PcieRates load_pcie_rates(const std::string& path) {
  nlohmann::json j = read_json_file(path);
  if (!j.is_object() || !j.contains("generations") || !j["generations"].is_array())
    throw InputError(path + ": not a PCIe rate table (no \"generations\" array)");
  if (!j.contains("source") || !j["source"].is_string() || j["source"].get<std::string>().empty())
    throw InputError(path + ": the PCIe rate table has no source");
  PcieRates r;
  r.source = j["source"].get<std::string>();
  for (auto& g : j["generations"]) {
    if (!g.is_object() || !g.contains("gen") || !g["gen"].is_number_unsigned() || !g.contains("lane_GBps") ||
        !g["lane_GBps"].is_number() || !g.contains("gigatransfers_per_s") || !g["gigatransfers_per_s"].is_number() ||
        !g.contains("efficiency") || !g["efficiency"].is_number())
      throw InputError(path + ": a generation needs gen, gigatransfers_per_s, efficiency and lane_GBps");
    unsigned gen = g["gen"].get<unsigned>();
    double lane = g["lane_GBps"].get<double>();
    double derived = g["gigatransfers_per_s"].get<double>() * g["efficiency"].get<double>() / 8;
    if (gen == 0 || gen > 16 || !(std::fabs(lane - derived) <= 1e-6 * derived))
      throw InputError(path + ": generation " + std::to_string(gen) + ": lane_GBps " + std::to_string(lane) +
                       " is not gigatransfers_per_s x efficiency / 8 = " + std::to_string(derived));
    if (r.lane_GBps.size() <= gen) r.lane_GBps.resize(gen + 1, 0);
    r.lane_GBps[gen] = lane;
  }
  return r;
}

}  // namespace gpucheck
