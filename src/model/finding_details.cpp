#include "model/finding_details.h"

#include "model/json_fields.h"

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

std::optional<BenchmarkComparison> benchmark_comparison(const Finding& f) {
  const nlohmann::json& d = f.details;
  if (!d.is_object()) return std::nullopt;
  BenchmarkComparison c;
  c.name = member(d, "name").is_string() ? text_at(d, "name") : f.title;
  c.verdict = text_at(d, "verdict");
  c.measured = member(d, "base").is_object() && d.contains("p");
  c.base_median_ns = number_at(member(d, "base"), "median_ns", 0.0);
  c.new_median_ns = number_at(member(d, "new"), "median_ns", 0.0);
  c.change = number_at(d, "change");
  c.p = number_at(d, "p", 1.0);
  return c;
}

Sweep sweep_of(const Finding& f) {
  Sweep sweep;
  const nlohmann::json& rows = member(f.details, "rows");
  if (!rows.is_array()) return sweep;
  const bool bus = sweep.bus_bandwidth = number_at(f.details, "world") > 1;
  auto& out = sweep.points;
  for (const auto& row : rows) {
    if (!row.is_object() || (row.contains("exercised") && row["exercised"] == false)) continue;
    SweepPoint p{text_at(row, "key"), number_at(row, "bytes"), number_at(row, bus ? "busbw_gbps" : "algbw_gbps")};
    if (std::isfinite(p.bytes) && std::isfinite(p.gbps)) out.push_back(std::move(p));
  }
  return sweep;
}

std::optional<std::string> plain_table(const Finding& f) {
  if (!member(f.details, "table").is_string()) return std::nullopt;
  return text_at(f.details, "table");
}

}  // namespace gpucheck::model
