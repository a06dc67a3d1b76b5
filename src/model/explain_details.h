#pragma once
// `gpucheck explain`'s own part of its Report, typed: Report.details (the input read, the pasted
// environment report) written by report/explain_report.cpp, and each cause's Finding.details as
// checks/explain writes them; the text renderer reads both through these structs, never by key.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/finding.h"
#include "model/report.h"

namespace gpucheck::model {

/// What the log was, as read (explain::InputSummary).
struct ExplainInput {
  std::string name;  // the file, or "-" for standard input
  std::uint64_t bytes = 0, lines = 0, long_lines = 0, invalid_utf8_bytes = 0, control_bytes = 0;
  bool binary = false;
};

/// An environment report pasted into the log (collect_env, ...), judged by the doctor's rules.
struct PastedEnvironment {
  std::string kind;              // "collect_env", ...
  nlohmann::json inventory;      // the inventory read from it (inventory::to_json's document)
};

struct ExplainDetails {
  ExplainInput input;
  std::optional<PastedEnvironment> environment_report;
};

nlohmann::json to_json(const ExplainDetails& d);
/// The explain details of `r`; lenient: a missing or mistyped field keeps its default.
ExplainDetails explain_details(const model::Report& r);

/// A similar report from the index (explain::add_similar_reports): its thread and the fix that solved it.
struct SimilarReport {
  std::string url, cause, fix;
  double score = 0;
  bool fix_confirmed = false;
};

/// A signature that matched but was not named (too weak, or the log's context says otherwise).
struct UnnamedCandidate {
  std::string id, why_not;
  double confidence = 0;
};

/// What a cause's Finding.details say beyond the Finding (checks/explain/explainer.cpp).
struct ExplainCause {
  bool root = false;              // the root cause, the one to fix first
  double confidence = 0;
  std::vector<std::uint64_t> lines;  // the log line of each evidence item (parallel; 0 when not known)
  std::vector<SimilarReport> similar;
  std::vector<UnnamedCandidate> candidates;  // of the "unknown" Finding only
};

ExplainCause explain_cause(const Finding& f);

}  // namespace gpucheck::model
