#pragma once
// The one result model. A probe's result, a doctor finding, an explained cause and an abi verdict are all
// Findings; a command's Findings go into one report::Report, which renderers read and nothing else.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpucheck {

/// One scale for everything: pass < info < skip < warn < fail < error. `info` is a fact worth reading
/// that needs no action (a doctor note, an identified cause); `error` means no verdict could be reached.
enum class Status { kPass, kInfo, kSkip, kWarn, kFail, kError };

const char* to_string(Status s);
/// Parses "pass", "info", "warn", ...; returns nullopt for anything else.
std::optional<Status> parse_status(const std::string& s);
/// Severity order used to combine results: pass < info < skip < warn < fail < error.
int severity(Status s);
Status worst(Status a, Status b);
/// Every status, mildest first.
const std::vector<Status>& all_statuses();

/// A fact a verdict rests on, and where it came from.
struct Evidence {
  std::string what;    // "torch.version.cuda", "line 28", "stderr_tail"
  std::string value;   // "11.8"
  std::string source;  // "/opt/env/bin/python", "driver.json (NVIDIA release notes)"; "" when self-evident
};

/// Evidence in the order it was added. `list[what] = value` sets (or adds) the entry named `what`, so
/// probes write evidence the way they would fill a map, while the order a reader sees is kept.
class EvidenceList : public std::vector<Evidence> {
 public:
  using std::vector<Evidence>::vector;      // EvidenceList{{what, value, source}, ...}
  using std::vector<Evidence>::operator=;   // list = {{what, value, source}, ...}
  using std::vector<Evidence>::operator[];  // by position: list[0]
  std::string& operator[](const std::string& what);
  /// Throws std::out_of_range when there is no entry named `what`.
  const std::string& at(const std::string& what) const;
  std::size_t count(const std::string& what) const;
  void add(std::string what, std::string value, std::string source = "");
};

/// One way to fix what a Finding found; Findings keep them ranked, 1 = try first.
struct Fix {
  int rank = 0;
  std::string summary;                // "Install the bmtrain release that ships a prebuilt wheel"
  std::vector<std::string> commands;  // exact shell lines, in order; empty for advice without a command
  std::string cost;                   // download size, build time, what it changes; "" when not known
};

struct Metric {
  std::string name;
  double value = 0.0;
  std::string unit;
  std::string better;  // "higher", "lower" or "" when the metric is informational
};

/// Per-GPU (or per-rank) part of a Finding.
struct DeviceFinding {
  std::string device;  // "0", "GPU-uuid", "rank 3 on node7"
  Status status = Status::kSkip;
  std::string summary;
  std::vector<Metric> metrics;
  EvidenceList evidence;
};

struct Finding {
  std::string id;       // stable: "kernels.adam", "cuda.nvcc_torch_major_mismatch", "no-kernel-image"
  Status status = Status::kSkip;
  std::string title;    // one line
  std::string summary;  // what was found, one or two sentences
  EvidenceList evidence;
  std::string explanation;
  std::vector<Fix> fixes;               // ranked
  std::vector<std::string> references;  // sources behind the verdict (knowledge-base URLs, threads)
  std::vector<Metric> metrics;
  std::vector<DeviceFinding> devices;
  double duration_s = 0.0;              // time the check took; 0 when not timed
  nlohmann::json details;               // check-specific structured data; null when none

  void add_metric(std::string name, double value, std::string unit, std::string better = "");
  /// Appends a fix ranked after the existing ones.
  void add_fix(std::string summary, std::vector<std::string> commands = {}, std::string cost = "");
};

void to_json(nlohmann::json& j, const Evidence& e);
void from_json(const nlohmann::json& j, Evidence& e);
void to_json(nlohmann::json& j, const Fix& f);
void from_json(const nlohmann::json& j, Fix& f);
void to_json(nlohmann::json& j, const Metric& m);
void from_json(const nlohmann::json& j, Metric& m);
void to_json(nlohmann::json& j, const DeviceFinding& d);
void from_json(const nlohmann::json& j, DeviceFinding& d);
void to_json(nlohmann::json& j, const Finding& f);
/// Strict: throws nlohmann::json::exception or std::invalid_argument on a malformed finding.
void from_json(const nlohmann::json& j, Finding& f);

}  // namespace gpucheck
