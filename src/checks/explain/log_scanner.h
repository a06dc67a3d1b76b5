#pragma once
// Streams a log through the signatures: bytes in (any chunking), matches out. Memory is bounded whatever
// the input: a line longer than kSegmentBytes (a minified log, an nvcc command line, a progress bar
// without newlines) is read as overlapping segments of that size, all with the line's number; only
// `window` segments are held, and evidence and context values are capped per signature.
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "checks/explain/literal_matcher.h"
#include "checks/explain/log_normalizer.h"
#include "checks/explain/signature.h"

namespace gpucheck::explain {

constexpr std::size_t kSegmentBytes = 4 * 1024;    // of one raw line (or segment of a longer one)
constexpr std::size_t kSegmentOverlap = 512;       // repeated at the start of the next segment: longer than
                                                   // any message a signature matches, so none is cut in two
constexpr std::size_t kMaxRegexBytes = kSegmentBytes;  // of one normalised segment given to a regex
constexpr std::size_t kMaxEvidence = 6;            // per cause
constexpr std::size_t kMaxContextValues = 256;     // per context signature
constexpr std::size_t kErrorLinesKept = 8;         // for the "unknown" verdict
constexpr std::size_t kContextCandidates = 8;      // recent candidate lines kept per context pattern

struct SignatureHits {
  std::size_t hits = 0;             // matched lines
  std::uint64_t first_line = 0;
  double confidence = 0.0;
  std::vector<bool> patterns_matched;
  std::vector<std::pair<std::uint64_t, std::string>> evidence;  // (line, text)
  std::map<std::string, std::string> captures;                  // first value of each name
  // For context signatures: every (line, captures) seen, in order (capped).
  std::vector<std::pair<std::uint64_t, std::map<std::string, std::string>>> values;
};

struct ScanOptions {
  // false: find each pattern's literals by a plain case-insensitive substring search instead of the
  // automaton (slow; the tests check both give the same result). Either way a pattern applies at a line
  // that contains one of its literals.
  bool automaton = true;
};

class LogScanner {
 public:
  LogScanner(const std::vector<Signature>& signatures, ScanOptions options = {});
  /// Feeds the next bytes of the log, cut anywhere.
  void feed(std::string_view bytes);
  /// Flushes the last line and the lookahead window; call once at the end.
  void finish();

  const std::vector<SignatureHits>& hits() const { return hits_; }  // parallel to the signatures
  const std::deque<std::pair<std::uint64_t, std::string>>& error_lines() const { return error_lines_; }
  std::uint64_t bytes() const { return bytes_; }
  std::uint64_t lines() const { return line_no_; }
  std::uint64_t long_lines() const { return long_lines_; }  // lines read as several segments
  const NormalizeStats& stats() const { return stats_; }

 private:
  struct PatternRef {
    std::size_t signature, pattern;
  };
  struct Line {
    std::uint64_t number;
    std::string text;
  };
  void end_line();
  void end_segment();  // the pending line is longer than a segment: process what is there, keep the overlap
  void push(Line line);
  void process_front();
  void match_pattern(std::size_t si, std::size_t pi);
  // Context values are only needed next to a cause, so their regexes run lazily: candidate lines (that
  // contain a context literal) are remembered, and evaluated when a cause first appears, newest first.
  void remember_context(std::size_t si, std::size_t pi, const Line& line);
  bool record_context(std::size_t si, std::size_t pi, const Line& line);
  void resolve_contexts();
  struct ContextState {
    std::size_t signature = 0, pattern = 0;
    std::deque<Line> recent;  // newest at the back
    std::size_t awaiting = 0;  // a cause had no earlier value: try this many following candidates
  };
  std::vector<ContextState> contexts_;

  const std::vector<Signature>& signatures_;
  ScanOptions options_;
  std::shared_ptr<const LiteralMatcher> literals_;  // shared by every scanner of these signatures
  LiteralMatcher::Scratch scan_scratch_;
  std::vector<PatternRef> literal_patterns_;  // literal index -> the pattern it belongs to (each its own)
  std::size_t first_error_literal_ = 0;                    // literals from here on mark error-looking lines
  std::size_t max_window_ = 1;
  std::vector<SignatureHits> hits_;
  std::deque<Line> window_;
  std::deque<std::pair<std::uint64_t, std::string>> error_lines_;
  std::string pending_;
  bool pending_is_continuation_ = false;  // pending_ starts with the overlap of a previous segment
  std::size_t counted_ = 0;               // bytes at the start of pending_ already in stats_ (that overlap)
  std::uint64_t bytes_ = 0, line_no_ = 0, long_lines_ = 0;
  NormalizeStats stats_;
  /// Normalises a segment and adds what it replaced to stats_, except in its first counted_ bytes: the
  /// overlap is read twice, its bytes are counted once.
  std::string normalize_counting_once(std::string_view segment);
  std::vector<char> pattern_pending_;  // per flat pattern index, for de-duplication within a line
  std::vector<std::pair<std::size_t, std::size_t>> todo_;  // (signature, pattern) to try on this line
  std::vector<std::size_t> pattern_offset_;
};

}  // namespace gpucheck::explain
