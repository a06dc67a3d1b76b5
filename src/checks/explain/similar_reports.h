#pragma once
// Similar reports: the corpus cases (real threads with their URL, cause and the fix that solved them)
// closest to an explained log, so a user can read the thread. Offline: the index is data/explain/
// similar.json, built from tests/data/corpus and tests/data/logs by explain_similar_index (a CMake step);
// it keeps each case's distinctive lines (evidence and error-looking lines, shortened), never whole logs.
// Ranking: cosine similarity of TF-IDF vectors over normalised tokens of those lines, plus one token for
// the cause (a case of the cause explain named counts as shared vocabulary); ties by case name, so the
// order is deterministic.
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "checks/explain/explanation.h"

namespace gpucheck::explain {

/// The tokens of one log line as similarity sees them: ASCII-lowercased words of letters, digits and
/// `_+.-`; digits replaced by 0 (versions, addresses and line numbers must not make two logs different);
/// words without a letter, hex addresses, words shorter than 3 or longer than 40 characters dropped.
std::vector<std::string> similarity_tokens(const std::string& line);

struct SimilarCase {
  std::string name;  // the case's file name without extension (its slug)
  std::string url, fix, family;
  std::vector<std::string> causes;  // the thread's cause first (root), then any other it shows; [] = unknown
  bool fix_confirmed = false;
  std::vector<std::string> lines;  // distinctive lines
};

struct SimilarHit {
  const SimilarCase* c = nullptr;
  double score = 0.0;  // cosine in [0, 1]
};

class SimilarIndex {
 public:
  SimilarIndex() = default;
  /// Reads data/explain/similar.json's shape ({"version": 1, "cases": [...]}); throws InputError when it
  /// is not one.
  explicit SimilarIndex(const nlohmann::json& doc);
  std::size_t size() const { return cases_.size(); }
  const std::vector<SimilarCase>& cases() const { return cases_; }
  /// The `k` cases most similar to `lines` (with `cause` as one more token when not empty), best first,
  /// scores >= `min_score`.
  std::vector<SimilarHit> rank(const std::vector<std::string>& lines, const std::string& cause, std::size_t k = 3,
                               double min_score = 0.1) const;

 private:
  std::vector<SimilarCase> cases_;
  std::map<std::string, double> idf_;
  std::vector<std::map<std::string, double>> vectors_;  // unit-length TF-IDF per case
  std::map<std::string, double> vectorize(const std::vector<std::string>& lines, const std::string& cause) const;
};

/// Adds details.similar = [{case, url, cause, fix, fix_confirmed, score}] to each cause of `ex` (query: its
/// evidence and the log's error-looking lines, and its id) and to ex.unknown (query: the error lines).
void add_similar_reports(Explanation& ex, const SimilarIndex& index, std::size_t k = 3);

/// One index entry as JSON (what the generator writes).
nlohmann::json similar_case_json(const SimilarCase& c);

/// The index document for these cases (sorted by name).
nlohmann::json similar_index_json(std::vector<SimilarCase> cases);

}  // namespace gpucheck::explain
