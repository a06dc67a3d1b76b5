#include "core/measurement_details.h"

namespace gpucheck::measured {
namespace {

double number(const nlohmann::json& j, const char* key, bool* ok = nullptr) {
  auto it = j.find(key);
  bool is = it != j.end() && it->is_number();
  if (ok) *ok = is;
  return is ? it->get<double>() : 0;
}

// details.devices, the object both probes key by GPU; null when the details are not that shape.
const nlohmann::json* devices_of(const nlohmann::json& details) {
  if (!details.is_object()) return nullptr;
  auto it = details.find("devices");
  return it != details.end() && it->is_object() ? &*it : nullptr;
}

}  // namespace

nlohmann::json copy_direction_json(const CopyDirection& d) {
  nlohmann::json j{{"median_GBps", d.median_GBps}, {"cv", d.cv}, {"min_GBps", d.min_GBps}, {"max_GBps", d.max_GBps},
                   {"runs", d.runs}, {"wrong_words", d.wrong_words}};
  if (d.link_GBps) {
    j["link_GBps"] = *d.link_GBps;
    j["link_ratio"] = d.median_GBps / *d.link_GBps;
  }
  return j;
}

nlohmann::json copy_details(const std::vector<CopyDevice>& devices, nlohmann::json p2p, std::size_t bytes_per_copy,
                            int runs) {
  nlohmann::json by_device = nlohmann::json::object();
  for (const auto& dev : devices) {
    nlohmann::json dj = nlohmann::json::object();
    for (const auto& d : dev.directions) dj[d.direction] = copy_direction_json(d);
    by_device[dev.device] = dj;
  }
  return {{"devices", by_device}, {"p2p", std::move(p2p)}, {"bytes_per_copy", bytes_per_copy}, {"runs", runs},
          {"gigabyte_bytes", 1000000000}};
}

std::vector<CopyDevice> read_copy_details(const nlohmann::json& details) {
  std::vector<CopyDevice> out;
  const nlohmann::json* devices = devices_of(details);
  if (!devices) return out;
  for (const auto& [device, dj] : devices->items()) {
    if (!dj.is_object()) continue;
    CopyDevice dev{device, {}};
    for (const auto& [direction, j] : dj.items()) {
      if (!j.is_object()) continue;
      bool ok = false;
      CopyDirection d;
      d.direction = direction;
      d.median_GBps = number(j, "median_GBps", &ok);
      if (!ok) continue;
      d.cv = number(j, "cv");
      d.min_GBps = number(j, "min_GBps");
      d.max_GBps = number(j, "max_GBps");
      d.runs = static_cast<std::size_t>(number(j, "runs"));
      d.wrong_words = static_cast<unsigned long long>(number(j, "wrong_words"));
      bool has_link = false;
      double link = number(j, "link_GBps", &has_link);
      if (has_link && link > 0) d.link_GBps = link;
      dev.directions.push_back(std::move(d));
    }
    if (!dev.directions.empty()) out.push_back(std::move(dev));
  }
  return out;
}

nlohmann::json gemm_type_json(const GemmTypeResult& t) {
  nlohmann::json j{{"type", t.type}};
  if (!t.exact.is_null()) j["exact"] = t.exact;
  if (!t.random.is_null()) j["random"] = t.random;
  if (!t.exact.is_null() || !t.throughput.empty()) {
    nlohmann::json sizes = nlohmann::json::array();
    for (const auto& s : t.throughput) sizes.push_back({{"n", s.n}, {"tflops_median", s.tflops_median}});
    j["throughput"] = sizes;
  }
  return j;
}

nlohmann::json gemm_details(const std::vector<GemmDevice>& devices, const nlohmann::json& check_shape,
                            const std::vector<std::int64_t>& sizes, int repetitions) {
  nlohmann::json by_device = nlohmann::json::object();
  for (const auto& dev : devices) {
    nlohmann::json types = nlohmann::json::array();
    for (const auto& t : dev.types) types.push_back(gemm_type_json(t));
    by_device[dev.device] = types;
  }
  return {{"devices", by_device}, {"check_shape", check_shape}, {"sizes", sizes}, {"repetitions", repetitions}};
}

std::vector<GemmDevice> read_gemm_details(const nlohmann::json& details) {
  std::vector<GemmDevice> out;
  const nlohmann::json* devices = devices_of(details);
  if (!devices) return out;
  for (const auto& [device, types] : devices->items()) {
    if (!types.is_array()) continue;
    GemmDevice dev{device, {}};
    for (const auto& t : types) {
      if (!t.is_object() || !t.contains("type") || !t["type"].is_string()) continue;
      GemmTypeResult r;
      r.type = t["type"].get<std::string>();
      if (t.contains("exact")) r.exact = t["exact"];
      if (t.contains("random")) r.random = t["random"];
      if (t.contains("throughput") && t["throughput"].is_array())
        for (const auto& s : t["throughput"]) {
          bool has_n = false, has_tf = false;
          double n = s.is_object() ? number(s, "n", &has_n) : 0, tf = s.is_object() ? number(s, "tflops_median", &has_tf) : 0;
          if (has_n && has_tf) r.throughput.push_back({static_cast<std::int64_t>(n), tf});
        }
      dev.types.push_back(std::move(r));
    }
    out.push_back(std::move(dev));
  }
  return out;
}

}  // namespace gpucheck::measured
