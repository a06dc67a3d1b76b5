#pragma once
// The explain corpus under tests/data/corpus: <slug>.log (verbatim log text from a public thread) +
// <slug>.json ({source, thread, cause, fix, fix_confirmed, family, set?, notes?}), the frozen held-out split
// (by thread URL), the three measurement sets, and the per-cause accuracy table that docs/explain.md embeds.
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace gpucheck::explain::testing {

struct CorpusCase {
  std::string slug;          // file stem: <owner>-<repo>-<number>[-n] or <site>-<id>
  std::string log_path;
  std::string source;        // the issue / Q&A page the log was copied from
  std::string thread;        // canonical thread URL: the unit of the split
  std::string cause;         // the cause id the thread establishes ("unknown": none we model)
  std::string fix;           // what solved it, in words
  bool fix_confirmed = false;  // the thread says the fix worked
  std::string family;        // "build" or "runtime"
  bool heldout = false;      // computed from `thread`, never stored
  // Which measurement the case belongs to: "written-from" (read while signatures were written), "held-out"
  // (the split rule's side, seen once while collecting) or "blind" (collected after the signatures it is
  // measured by, never used to write one). Stored as "set" when a batch marked it ("blind", or
  // "written-from" for a blind case that was opened); otherwise the split rule decides.
  std::string set;
};

inline void PrintTo(const CorpusCase& c, std::ostream* os) { *os << c.slug; }

/// The split rule, frozen before any signature was written for the corpus:
/// held out iff int(sha256(thread).hexdigest()[:8], 16) % 100 < 35.
bool is_heldout_thread(const std::string& thread_url);

/// Loads every <slug>.json in `dir`; throws std::runtime_error naming the file on a malformed entry.
std::vector<CorpusCase> load_corpus(const std::string& dir);

struct CaseResult {
  CorpusCase c;
  std::string top1;          // the root cause explain named, "" when it said unknown
};

/// Counts over a set of cases: top-1 right, a wrong cause named, unknown.
struct Score {
  int cases = 0, right = 0, wrong = 0, unknown = 0;
  double top1() const { return cases ? static_cast<double>(right) / cases : 0; }
  double wrong_rate() const { return cases ? static_cast<double>(wrong) / cases : 0; }
  double unknown_rate() const { return cases ? static_cast<double>(unknown) / cases : 0; }
};

/// Scores by family ("build", "runtime", "all") for one side of the split.
std::map<std::string, Score> score_by_family(const std::vector<CaseResult>& results, bool heldout);

/// Scores by family for one measurement set ("written-from", "held-out", "blind").
std::map<std::string, Score> score_by_family(const std::vector<CaseResult>& results, const std::string& set);

/// Markdown: per family, one table each for the blind, held-out and written-from sets, then per cause the
/// cases no signature was written from (held-out and blind) and the written-from side in separate columns.
std::string corpus_markdown(const std::vector<CaseResult>& results);

}  // namespace gpucheck::explain::testing
