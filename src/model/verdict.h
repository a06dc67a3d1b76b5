#pragma once
// The one verdict of a report, computed here once and shown the same way by every format (render/): its
// word, the line with its counts, the exit code, what needs attention and the one thing to do next.
// A command printed as the next step is a gpucheck command line that works where it is printed: the program
// as it was invoked, the same inventory source and interpreter options the report was made with; anything
// else is a plain instruction pointing at a fix shown above it, never a made-up command.
#include <map>
#include <string>
#include <vector>

#include "model/report.h"

namespace gpucheck::model {

/// What a report concludes. Not every command judges: env describes, explain explains, diff compares,
/// and the listings (list, version, use-cuda, modulefiles, completion, man) only list.
enum class VerdictKind {
  kPass,              // every check that ran passed
  kFail,              // something is broken now (or breaks the user's goal)
  kNoVerdict,         // a check could not reach a verdict (exit 3)
  kNoGpuTested,       // run: every GPU probe skipped, so nothing is known about the GPUs
  kExplained,         // explain: a known cause of the failure in the log
  kUnknown,           // explain: no known failure signature in the log
  kSame,              // diff: nothing differs
  kMinorDifferences,  // diff: differences, none that matters
  kDifferent,         // diff: a difference that matters
  kDescribes,         // env: facts, no verdict (doctor judges them)
  kListing,           // data, nothing judged
};

/// "PASS", "FAIL", "NO VERDICT", "NO GPU TESTED", "EXPLAINED", "UNKNOWN", "SAME", "MINOR DIFFERENCES",
/// "DIFFERENT", "DESCRIBES, NO VERDICT", "LISTING".
const char* to_string(VerdictKind k);

/// What to do after reading a verdict: the advice, and the gpucheck command it ends with ("" when it names
/// none). The text renderer prints the command on a "$ " line of its own, which wrapping never breaks.
struct NextStep {
  std::string advice;   // "apply fix 1 of [id] above, then check again:"; "" for a listing
  std::string command;  // "gpucheck doctor --python P"
};

struct Verdict {
  VerdictKind kind = VerdictKind::kPass;
  std::string word;  // to_string(kind)
  /// The verdict with its counts, the same line in every format: "FAIL: 2 error(s), 0 warning(s)",
  /// "EXPLAINED: 2 cause(s), root cause [id]", "FAIL: 1 pass, 0 warn, 3 skip, 1 fail, 0 error (exit 1)".
  std::string line;
  std::string tone;                   // "pass", "fail" or "warn": the colour a format gives the verdict
  std::map<std::string, int> counts;  // status name -> counted findings (every status present)
  int exit_code = 0;
  NextStep next;
};

/// The verdict of `r`. `program` is how gpucheck was invoked (argv[0]), for the next step's command.
Verdict verdict(const model::Report& r, const std::string& program = "gpucheck");

/// False for the listings (list, version, use-cuda, modulefiles, completion, man): their text ends with no
/// verdict and no next step.
bool judges(const model::Report& r);

/// False for a finding that sums up others rather than being one more (doctor's plan headline: its
/// verdict is the plan's, not another warning); such a finding is not counted.
bool counted(const Finding& f);

/// A finding the reader must act on: a warning, failure or error, or any finding that carries a fix (an
/// explained cause, fleet's drain line). Every format shows these with their fixes and fix commands.
bool needs_attention(const Finding& f);
std::vector<const Finding*> attention(const model::Report& r);

/// A row of a table of checks: one finding, or the skips that share one reason (every format groups them
/// the same way, as the terminal does: a 200-character reason is not repeated in 8 rows).
struct CheckRow {
  Status status = Status::kSkip;
  std::vector<const Finding*> findings;  // one, or the skips with this reason, in order
  const std::string& reason() const { return findings.front()->summary; }
};
/// The rows of `findings` in order; a skip joins the row of the first skip with the same summary.
std::vector<CheckRow> check_rows(const std::vector<Finding>& findings);

/// explain's root cause among the causes (the one marked root, else the first); nullptr when none.
const Finding* root_cause(const model::Report& r);

/// compare: "2 regressions, 1 improvement, 30 unchanged, 4 skipped".
std::string compare_counts_line(const model::Report& r);

}  // namespace gpucheck::model
