#pragma once
// The run report: metadata + one Result per probe + the inventory, as one versioned JSON document
// (reports/schema/report.schema.json). Renderers read only this.
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.h"

namespace gpucheck::report {

inline constexpr const char* kReportSchemaVersion = "1.0";

struct Metadata {
  std::string tool_version;
  std::string hostname;
  std::string started_at, finished_at;  // ISO-8601 UTC
  std::vector<std::string> command_line;
  std::string level;
  bool strict = false;
  std::map<std::string, std::string> environment;  // allow-listed and redacted
};

struct Summary {
  std::map<std::string, int> counts;  // status name -> count (all five present)
  int exit_code = 0;
  std::string verdict;                // "PASS", "FAIL", "NO VERDICT"
};

struct Report {
  Metadata meta;
  std::vector<Result> results;
  nlohmann::json inventory;  // null when not collected
};

/// Exit code rules (README, --help): any fail -> 1; else any error -> 3; else with `strict` any skip -> 1;
/// else 0. A known failure outranks missing verdicts, because it is already actionable.
Summary summarize(const std::vector<Result>& results, bool strict);

nlohmann::json to_json(const Report& r);
/// Throws InputError for a document that is not a gpucheck report.
Report report_from_json(const nlohmann::json& j);

/// Environment variables worth recording (CUDA_*, NCCL_*, LD_LIBRARY_PATH, ...) and never others;
/// values of anything that looks secret are redacted.
std::map<std::string, std::string> allowed_environment(char** envp);
bool is_allowed_variable(const std::string& name);
bool looks_secret(const std::string& name);

/// reports/<host>-<UTC time>.json; with a numeric suffix if that name is taken.
std::string default_report_path(const std::string& dir, const std::string& host, const std::string& compact_time);

std::string hostname();

}  // namespace gpucheck::report
