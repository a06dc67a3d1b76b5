#include "model/finding_details.h"

namespace gpucheck::model {

std::optional<double> benchmark_new_counter(const Finding& benchmark, const std::string& name) {
  const auto& d = benchmark.details;
  if (!d.is_object() || !d.contains("counters") || !d["counters"].is_object()) return std::nullopt;
  const auto& c = d["counters"];
  if (!c.contains("new") || !c["new"].is_object() || !c["new"].contains(name) || !c["new"][name].is_number())
    return std::nullopt;
  return c["new"][name].get<double>();
}

std::optional<double> threshold_reference(const Finding& thresholds, const std::string& device, const std::string& metric) {
  const auto& d = thresholds.details;
  if (!d.is_object() || !d.contains("verdicts") || !d["verdicts"].is_array()) return std::nullopt;
  auto is = [](const nlohmann::json& v, const char* key, const std::string& want) {
    return v.contains(key) && v[key].is_string() && v[key].get<std::string>() == want;
  };
  for (const auto& v : d["verdicts"])
    if (v.is_object() && is(v, "rule", "reference_share") && is(v, "device", device) && is(v, "metric", metric) &&
        v.contains("reference") && v["reference"].is_number())
      return v["reference"].get<double>();
  return std::nullopt;
}

}  // namespace gpucheck::model
