#pragma once
// The one document every subcommand produces: metadata, the inventory it judged, and its Findings in named
// sections (reports/schema/report.schema.json). Renderers (src/render) read only this, and exit_code()
// turns it into the exit code of the contract.
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/finding.h"

namespace gpucheck::model {

inline constexpr const char* kReportSchemaVersion = "2.0";

/// How a command's findings become its exit code (exit_code()).
struct ExitPolicy {
  bool strict = false;         // a skip counts as a failure (run --strict: a node that must have GPUs)
  bool warn_fails = false;     // a warning counts as a failure (abi --strict)
  bool error_fails = false;    // an error counts as a failure, exit 1 not 3 (abi: an object that is not a
                               // usable ELF, met in a directory, is a problem found)
  bool informational = false;  // the command reports facts: its findings never fail it (env)
};

struct Metadata {
  std::string command;                  // the subcommand: "run", "doctor", "explain", "abi", "env", ...
  std::string tool_version;
  std::string hostname;
  std::string started_at, finished_at;  // ISO-8601 UTC
  std::vector<std::string> command_line;
  std::string level;                    // run only: quick, standard or long
  ExitPolicy exit;
  std::map<std::string, std::string> environment;  // allow-listed and redacted
};

/// Findings under one heading: "probes" for `run`, "findings" and "plan" for `doctor`, "causes" for
/// `explain`, "targets" for `abi`, "host_compiler" for `env`.
struct Section {
  std::string name;
  std::vector<Finding> findings;
};

struct Summary {
  std::map<std::string, int> counts;  // status name -> count of counted findings (every status present)
  int exit_code = 0;
  std::string verdict;                // "PASS", "FAIL", "NO VERDICT", "NO GPU TESTED" (model::verdict() says more)
};

struct Report {
  Metadata meta;
  std::vector<Section> sections;
  nlohmann::json inventory;           // the inventory judged or collected; null when none
  std::vector<std::string> notes;     // about the input, or what could not be looked at
  nlohmann::json details;             // what the command adds beyond findings (explain's input facts, ...)

  /// The section of this name, added at the end when missing.
  Section& section(const std::string& name);
  /// nullptr when there is no such section.
  const Section* find_section(const std::string& name) const;
  /// Every finding, in section order.
  std::vector<const Finding*> findings() const;
};

/// Exit code rules (README, --help): any fail -> 1; else any error -> 3 (1 with `error_fails`); else with
/// `strict` any skip -> 1, with `warn_fails` any warn -> 1; else 0; always 0 when `informational`. A known
/// failure outranks missing verdicts, because it is already actionable. The verdict describes the
/// findings whatever the policy.
Summary summarize(const std::vector<Finding>& findings, const ExitPolicy& policy = {});
Summary summarize(const Report& r);
/// The exit code of the contract for this report; every subcommand returns it.
int exit_code(const Report& r);

/// The document of reports/schema/report.schema.json; its summary is model::verdict(r, program)'s.
nlohmann::json to_json(const Report& r);
nlohmann::json to_json(const Report& r, const std::string& program);
/// Reads schema 2 and schema 1 (`results` becomes the "probes" section). Throws InputError for a
/// document that is not a gpucheck report.
Report report_from_json(const nlohmann::json& j);

/// Writes DIR/<host>-<UTC time>.json, or with a numeric suffix (-2, -3, ...) if that name is taken, the
/// name claimed atomically so concurrent runs into one directory all keep their reports; returns the path.
std::string write_report_file(const std::string& dir, const std::string& host, const std::string& compact_time,
                              const std::string& content);

/// A saved report (any command's, schema 2 or 1), to render again. Throws InputError naming the file for
/// anything that is not a readable gpucheck report, including a field of the wrong type.
Report read_report_file(const std::string& path);

}  // namespace gpucheck::model
