#include "hwstats/measure_stats.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace gpucheck::kernels {

RunStats summarize(std::vector<double> v) {
  if (v.empty()) throw std::invalid_argument("summarize: no runs");
  RunStats s;
  s.n = v.size();
  std::sort(v.begin(), v.end());
  s.min = v.front();
  s.max = v.back();
  s.median = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / static_cast<double>(v.size());
  if (v.size() > 1) {
    double sq = 0;
    for (double x : v) sq += (x - s.mean) * (x - s.mean);
    s.stddev = std::sqrt(sq / static_cast<double>(v.size() - 1));
    s.cv = s.mean != 0 ? s.stddev / s.mean : 0;
  }
  return s;
}

double gigabytes_per_s(double bytes, double seconds) {
  if (!(seconds > 0)) throw std::invalid_argument("gigabytes_per_s: seconds must be > 0");
  return bytes / seconds / 1e9;
}

std::optional<double> PcieRates::link_GBps(unsigned gen, unsigned width) const {
  if (gen == 0 || gen >= lane_GBps.size() || lane_GBps[gen] <= 0 || width == 0) return std::nullopt;
  return lane_GBps[gen] * width;
}

PcieRates load_pcie_rates(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot be read");
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("generations") || !j["generations"].is_array())
    throw std::runtime_error(path + ": not a PCIe rate table (no \"generations\" array)");
  PcieRates r;
  r.source = j.value("source", "");
  for (auto& g : j["generations"]) {
    if (!g.is_object() || !g.contains("gen") || !g["gen"].is_number_unsigned() || !g.contains("lane_GBps") ||
        !g["lane_GBps"].is_number() || !g.contains("gigatransfers_per_s") || !g.contains("efficiency"))
      throw std::runtime_error(path + ": a generation needs gen, gigatransfers_per_s, efficiency and lane_GBps");
    unsigned gen = g["gen"].get<unsigned>();
    double lane = g["lane_GBps"].get<double>();
    double derived = g["gigatransfers_per_s"].get<double>() * g["efficiency"].get<double>() / 8;
    if (gen == 0 || gen > 16 || std::fabs(lane - derived) > 1e-6 * derived)
      throw std::runtime_error(path + ": generation " + std::to_string(gen) + ": lane_GBps " + std::to_string(lane) +
                               " is not gigatransfers_per_s x efficiency / 8 = " + std::to_string(derived));
    if (r.lane_GBps.size() <= gen) r.lane_GBps.resize(gen + 1, 0);
    r.lane_GBps[gen] = lane;
  }
  return r;
}

}  // namespace gpucheck::kernels
