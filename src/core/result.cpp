#include "core/result.h"

#include <stdexcept>

namespace gpucheck {

namespace {
constexpr const char* kStatusNames[] = {"pass", "warn", "skip", "fail", "error"};

Status status_from_json(const nlohmann::json& j) {
  auto s = parse_status(j.get<std::string>());
  if (!s) throw std::invalid_argument("unknown status '" + j.get<std::string>() + "'");
  return *s;
}

std::map<std::string, std::string> evidence_from_json(const nlohmann::json& j) {
  std::map<std::string, std::string> out;
  for (auto& [k, v] : j.items()) out[k] = v.is_string() ? v.get<std::string>() : v.dump();
  return out;
}
}  // namespace

const char* to_string(Status s) { return kStatusNames[static_cast<int>(s)]; }

std::optional<Status> parse_status(const std::string& s) {
  for (int i = 0; i < 5; ++i)
    if (s == kStatusNames[i]) return static_cast<Status>(i);
  return std::nullopt;
}

int severity(Status s) {
  switch (s) {
    case Status::kPass: return 0;
    case Status::kSkip: return 1;
    case Status::kWarn: return 2;
    case Status::kFail: return 3;
    case Status::kError: return 4;
  }
  return 4;
}

Status worst(Status a, Status b) { return severity(a) >= severity(b) ? a : b; }

void Result::add_metric(std::string name, double value, std::string unit, std::string better) {
  metrics.push_back({std::move(name), value, std::move(unit), std::move(better)});
}

void to_json(nlohmann::json& j, const Metric& m) {
  j = {{"name", m.name}, {"value", m.value}, {"unit", m.unit}};
  if (!m.better.empty()) j["better"] = m.better;
}

void from_json(const nlohmann::json& j, Metric& m) {
  m.name = j.at("name").get<std::string>();
  m.value = j.at("value").get<double>();
  m.unit = j.value("unit", "");
  m.better = j.value("better", "");
  if (!m.better.empty() && m.better != "higher" && m.better != "lower")
    throw std::invalid_argument("metric '" + m.name + "': better must be higher or lower");
}

void to_json(nlohmann::json& j, const DeviceResult& d) {
  j = {{"device", d.device}, {"status", to_string(d.status)}, {"summary", d.summary},
       {"metrics", d.metrics}, {"evidence", d.evidence}};
}

void from_json(const nlohmann::json& j, DeviceResult& d) {
  d.device = j.at("device").get<std::string>();
  d.status = status_from_json(j.at("status"));
  d.summary = j.value("summary", "");
  if (j.contains("metrics")) d.metrics = j.at("metrics").get<std::vector<Metric>>();
  if (j.contains("evidence")) d.evidence = evidence_from_json(j.at("evidence"));
}

void to_json(nlohmann::json& j, const Result& r) {
  j = {{"id", r.id},           {"title", r.title},       {"status", to_string(r.status)},
       {"summary", r.summary}, {"metrics", r.metrics},   {"evidence", r.evidence},
       {"remedy", r.remedy},   {"duration_s", r.duration_s}, {"devices", r.devices}};
  if (!r.details.is_null()) j["details"] = r.details;
}

void from_json(const nlohmann::json& j, Result& r) {
  if (!j.is_object()) throw std::invalid_argument("result is not a JSON object");
  r.id = j.at("id").get<std::string>();
  r.title = j.value("title", "");
  r.status = status_from_json(j.at("status"));
  r.summary = j.value("summary", "");
  r.metrics = j.value("metrics", std::vector<Metric>{});
  r.evidence = j.contains("evidence") ? evidence_from_json(j.at("evidence")) : std::map<std::string, std::string>{};
  r.remedy = j.value("remedy", std::vector<std::string>{});
  r.duration_s = j.value("duration_s", 0.0);
  r.devices = j.value("devices", std::vector<DeviceResult>{});
  r.details = j.value("details", nlohmann::json());
}

}  // namespace gpucheck
