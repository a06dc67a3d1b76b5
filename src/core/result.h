#pragma once
// The one result model every probe and check produces. Reports, renderers and exit codes read only this.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpucheck {

enum class Status { kPass, kWarn, kSkip, kFail, kError };

const char* to_string(Status s);
/// Parses "pass", "warn", ...; returns nullopt for anything else.
std::optional<Status> parse_status(const std::string& s);
/// Severity order used to combine results: pass < skip < warn < fail < error.
int severity(Status s);
Status worst(Status a, Status b);

struct Metric {
  std::string name;
  double value = 0.0;
  std::string unit;
  std::string better;  // "higher", "lower" or "" when the metric is informational
};

/// Per-GPU (or per-rank) part of a result.
struct DeviceResult {
  std::string device;  // "0", "GPU-uuid", "rank 3 on node7"
  Status status = Status::kSkip;
  std::string summary;
  std::vector<Metric> metrics;
  std::map<std::string, std::string> evidence;
};

struct Result {
  std::string id;
  std::string title;
  Status status = Status::kSkip;
  std::string summary;
  std::vector<Metric> metrics;
  std::map<std::string, std::string> evidence;  // key facts a reader needs to trust the verdict
  std::vector<std::string> remedy;              // what to run to fix it, most useful first
  double duration_s = 0.0;
  std::vector<DeviceResult> devices;
  nlohmann::json details;  // probe-specific structured data (tables, sweeps); null when none

  void add_metric(std::string name, double value, std::string unit, std::string better = "");
};

void to_json(nlohmann::json& j, const Metric& m);
void from_json(const nlohmann::json& j, Metric& m);
void to_json(nlohmann::json& j, const DeviceResult& d);
void from_json(const nlohmann::json& j, DeviceResult& d);
void to_json(nlohmann::json& j, const Result& r);
/// Strict: throws nlohmann::json::exception or std::invalid_argument on a malformed result.
void from_json(const nlohmann::json& j, Result& r);

}  // namespace gpucheck
