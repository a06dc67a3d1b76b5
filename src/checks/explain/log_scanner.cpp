#include "checks/explain/log_scanner.h"

#include <algorithm>
#include <cstring>

namespace gpucheck::explain {
namespace {

constexpr std::size_t kEvidenceChars = 300;

// Words that make a line worth showing when no signature matched.
const char* const kErrorWords[] = {"error", "fatal", "failed", "exception", "traceback", "abort",
                                   "not found", "cannot", "unable to"};

std::string ascii_lower(std::string s) {
  for (auto& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

std::size_t char_boundary(const std::string& s, std::size_t i) {
  while (i > 0 && i < s.size() && (static_cast<unsigned char>(s[i]) & 0xc0) == 0x80) --i;  // not inside a UTF-8 char
  return i;
}

// A long line is shown as the part around what matched, so the evidence still shows the error.
std::string shorten(const std::string& s, std::size_t focus = 0) {
  if (s.size() <= kEvidenceChars) return s;
  std::size_t begin = focus > kEvidenceChars / 4 ? focus - kEvidenceChars / 4 : 0;
  if (begin + kEvidenceChars > s.size()) begin = s.size() - kEvidenceChars;
  begin = char_boundary(s, begin);
  std::size_t end = char_boundary(s, std::min(s.size(), begin + kEvidenceChars));
  return (begin > 0 ? "... " : "") + s.substr(begin, end - begin) + (end < s.size() ? " ..." : "");
}

}  // namespace

LogScanner::LogScanner(const std::vector<Signature>& signatures, ScanOptions options)
    : signatures_(signatures), options_(options), hits_(signatures.size()) {
  std::vector<std::string_view> literals;  // views: the matcher is found without copying a string
  for (std::size_t si = 0; si < signatures_.size(); ++si) {
    pattern_offset_.push_back(pattern_pending_.size());
    hits_[si].patterns_matched.assign(signatures_[si].patterns.size(), false);
    for (std::size_t pi = 0; pi < signatures_[si].patterns.size(); ++pi) {
      const auto& p = signatures_[si].patterns[pi];
      max_window_ = std::max<std::size_t>(max_window_, static_cast<std::size_t>(p.window));
      pattern_pending_.push_back(0);
      for (const auto& lit : p.literals) {
        literals.push_back(lit);
        literal_patterns_.push_back({si, pi});
      }
    }
  }
  for (std::size_t si = 0; si < signatures_.size(); ++si)
    if (signatures_[si].kind == "context")
      for (std::size_t pi = 0; pi < signatures_[si].patterns.size(); ++pi) contexts_.push_back({si, pi, {}, 0});
  first_error_literal_ = literals.size();
  for (const char* w : kErrorWords) literals.push_back(w);
  literals_ = LiteralMatcher::shared(literals);
}

void LogScanner::feed(std::string_view bytes) {
  bytes_ += bytes.size();
  while (!bytes.empty()) {
    const void* nl = std::memchr(bytes.data(), '\n', bytes.size());
    std::size_t take = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - bytes.data()) : bytes.size();
    while (pending_.size() + take > kSegmentBytes) {
      std::size_t room = kSegmentBytes - pending_.size();
      pending_.append(bytes.data(), room);
      bytes.remove_prefix(room);
      take -= room;
      end_segment();
    }
    pending_.append(bytes.data(), take);
    if (!nl) break;
    end_line();
    bytes.remove_prefix(take + 1);
  }
}

namespace {
// The largest cut <= `at` that does not split a UTF-8 sequence (continuation bytes are 10xxxxxx).
std::size_t utf8_boundary(const std::string& s, std::size_t at) {
  std::size_t cut = at;
  while (cut > 0 && at - cut < 3 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80 ? at : cut;
}
}  // namespace

void LogScanner::end_segment() {
  if (!pending_is_continuation_) ++long_lines_;
  const std::size_t carried_from = utf8_boundary(pending_, pending_.size() - kSegmentOverlap);
  std::string overlap = pending_.substr(carried_from);
  // The segment ends before a character the cut would split; the overlap carries it whole.
  std::size_t end = pending_.size();
  if (static_cast<unsigned char>(pending_.back()) >= 0x80) end = utf8_boundary(pending_, end - 1);
  push({line_no_ + 1, normalize_counting_once(std::string_view(pending_).substr(0, end))});
  pending_ = std::move(overlap);
  counted_ = end > carried_from ? end - carried_from : 0;  // the part of the overlap this segment counted
  pending_is_continuation_ = true;
}

void LogScanner::end_line() {
  ++line_no_;
  push({line_no_, normalize_counting_once(pending_)});
  pending_.clear();
  pending_is_continuation_ = false;
  counted_ = 0;
}

std::string LogScanner::normalize_counting_once(std::string_view segment) {
  NormalizeStats all;
  std::string text = normalize_line(segment, all);
  if (counted_ > 0) {
    NormalizeStats head;
    normalize_line(segment.substr(0, std::min(counted_, segment.size())), head);
    all.invalid_utf8_bytes -= std::min(all.invalid_utf8_bytes, head.invalid_utf8_bytes);
    all.control_bytes -= std::min(all.control_bytes, head.control_bytes);
  }
  stats_.invalid_utf8_bytes += all.invalid_utf8_bytes;
  stats_.control_bytes += all.control_bytes;
  return text;
}

void LogScanner::push(Line line) {
  window_.push_back(std::move(line));
  if (window_.size() >= max_window_) {
    process_front();
    window_.pop_front();
  }
}

void LogScanner::finish() {
  if (!pending_.empty() || pending_is_continuation_) end_line();
  while (!window_.empty()) {
    process_front();
    window_.pop_front();
  }
}

void LogScanner::process_front() {
  const Line& line = window_.front();
  if (line.text.empty()) return;
  auto& todo = todo_;
  todo.clear();
  bool error_like = false;
  if (options_.automaton) {
    literals_->scan(line.text, scan_scratch_, [&](std::size_t lit) {
      if (lit >= first_error_literal_) {
        error_like = true;
        return;
      }
      const auto& ref = literal_patterns_[lit];
      auto flat = pattern_offset_[ref.signature] + ref.pattern;
      if (!pattern_pending_[flat]) {
        pattern_pending_[flat] = 1;
        todo.emplace_back(ref.signature, ref.pattern);
      }
    });
  } else {
    std::string lower = ascii_lower(line.text);
    for (std::size_t si = 0; si < signatures_.size(); ++si)
      for (std::size_t pi = 0; pi < signatures_[si].patterns.size(); ++pi)
        for (const auto& lit : signatures_[si].patterns[pi].literals)
          if (lower.find(ascii_lower(lit)) != std::string::npos) {
            todo.emplace_back(si, pi);
            break;
          }
    for (const char* w : kErrorWords) error_like |= lower.find(w) != std::string::npos;
  }
  std::sort(todo.begin(), todo.end());  // deterministic order whatever the automaton reported
  for (auto [si, pi] : todo) {
    pattern_pending_[pattern_offset_[si] + pi] = 0;
    if (signatures_[si].kind == "context") remember_context(si, pi, line);
    else match_pattern(si, pi);
  }
  if (error_like) {
    error_lines_.emplace_back(line.number, shorten(line.text));
    if (error_lines_.size() > kErrorLinesKept) error_lines_.pop_front();
  }
}

void LogScanner::match_pattern(std::size_t si, std::size_t pi) {
  const Signature& sig = signatures_[si];
  const Pattern& pat = sig.patterns[pi];
  // The text a wrapped message spans: this line and the next window-1 lines, joined by a space (a message
  // the program broke over lines), else joined directly (a terminal or paste that cut a long line anywhere).
  std::string text;
  std::vector<std::size_t> line_ends;
  auto join = [&](const char* sep) {
    text = window_[0].text.substr(0, kMaxRegexBytes);
    line_ends.assign(1, text.size());
    for (std::size_t k = 1; k < static_cast<std::size_t>(pat.window) && k < window_.size(); ++k) {
      text += sep;
      text.append(window_[k].text, 0, kMaxRegexBytes);
      line_ends.push_back(text.size());
    }
  };
  RegexMatch m;
  join(" ");
  if (!pat.regex.search(text, pat.anchored, &m)) {
    if (pat.window == 1) return;
    join("");
    if (!pat.regex.search(text, pat.anchored, &m)) return;
  }

  SignatureHits& h = hits_[si];
  ++h.hits;
  bool first_cause = h.first_line == 0;
  if (h.first_line == 0) h.first_line = window_[0].number;
  h.confidence = std::max(h.confidence, pat.confidence);
  h.patterns_matched[pi] = true;

  for (auto& [k, v] : pat.regex.captures(m)) h.captures.emplace(k, v);
  for (const auto& [k, v] : pat.sets) h.captures.emplace(k, v);
  if (first_cause) resolve_contexts();
  // Evidence: the lines the match covers.
  const std::size_t match_end = m.end;
  for (std::size_t k = 0; k < line_ends.size(); ++k) {
    std::size_t begin = k == 0 ? 0 : line_ends[k - 1];
    if (begin >= match_end && k > 0) break;
    if (h.evidence.size() >= kMaxEvidence) break;
    auto number = window_[k].number;
    bool dup = std::any_of(h.evidence.begin(), h.evidence.end(), [&](const auto& e) { return e.first == number; });
    auto focus = k == 0 ? m.begin : 0;
    if (!dup) h.evidence.emplace_back(number, shorten(window_[k].text, focus));
  }
}

void LogScanner::remember_context(std::size_t si, std::size_t pi, const Line& line) {
  for (auto& c : contexts_) {
    if (c.signature != si || c.pattern != pi) continue;
    if (c.awaiting > 0) {
      --c.awaiting;
      if (record_context(si, pi, line)) {
        c.awaiting = 0;
        return;
      }
    }
    c.recent.push_back({line.number, line.text.substr(0, kMaxRegexBytes)});
    if (c.recent.size() > kContextCandidates) c.recent.pop_front();
  }
}

bool LogScanner::record_context(std::size_t si, std::size_t pi, const Line& line) {
  const Pattern& pat = signatures_[si].patterns[pi];
  RegexMatch m;
  if (!pat.regex.search(line.text, pat.anchored, &m)) return false;
  std::map<std::string, std::string> caps = pat.regex.captures(m);
  for (const auto& [k, v] : pat.sets) caps.emplace(k, v);
  SignatureHits& h = hits_[si];
  ++h.hits;
  if (h.first_line == 0 || line.number < h.first_line) h.first_line = line.number;
  h.patterns_matched[pi] = true;
  if (h.values.size() >= kMaxContextValues) return true;
  auto at = std::upper_bound(h.values.begin(), h.values.end(), line.number,
                             [](std::uint64_t n, const auto& v) { return n < v.first; });
  if (at != h.values.begin() && std::prev(at)->first == line.number) return true;  // already recorded
  h.values.insert(at, {line.number, std::move(caps)});
  return true;
}

void LogScanner::resolve_contexts() {
  for (auto& c : contexts_) {
    bool found = false;
    for (auto it = c.recent.rbegin(); it != c.recent.rend() && !found; ++it) found = record_context(c.signature, c.pattern, *it);
    c.awaiting = found ? 0 : kContextCandidates;
  }
}

}  // namespace gpucheck::explain
