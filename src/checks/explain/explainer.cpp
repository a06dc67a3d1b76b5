#include "checks/explain/explainer.h"

#include <cerrno>
#include <cstring>

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <sstream>

#include "checks/explain/cause_score.h"
#include "core/errors.h"
#include "model/fix_text.h"
#include "platform/environment.h"

namespace gpucheck::explain {
namespace {

// Bytes read from a stream at a time. 64 KiB: as few read(2) calls per MiB as anyone notices, and no zeroed
// 1 MiB buffer per call (under ASan a fresh mapping each time: its memset and page faults were about 40% of
// the explain fuzz target's time).
constexpr std::size_t kChunkBytes = 64u << 10;

struct LineEvidence {
  std::uint64_t line = 0;  // 1-based line number in the input
  std::string text;        // normalised line, shortened to a readable length
};

// A cause while it is being assembled (merged with a reclassified twin, ordered, given its root flag);
// published as a Finding at the end.
struct Match {
  std::string id;
  std::string title;
  double confidence = 0.0;
  bool root = false;
  std::vector<LineEvidence> evidence;
  std::map<std::string, std::string> captures;
  std::string explanation;
  std::vector<std::string> fix;
  std::vector<std::string> sources;
  std::uint64_t first_line = 0;
  CauseScore score;
};

// A cause that matched something but is not named (too weak, or the context says otherwise).
struct Candidate {
  std::string id;
  double confidence = 0.0;
  std::uint64_t first_line = 0;
  std::string why_not;
};

void sort_by_line(std::vector<LineEvidence>& ev) {
  std::sort(ev.begin(), ev.end(), [](const LineEvidence& a, const LineEvidence& b) { return a.line < b.line; });
}

double round2(double v) { return std::round(v * 100.0) / 100.0; }

void redact_json_strings(nlohmann::json& j) {
  if (j.is_string()) j = platform::redact_credentials(j.get<std::string>());
  else if (j.is_structured())
    for (auto& v : j) redact_json_strings(v);
}

// Everything a finding took from the log (evidence lines, captures, text and fixes made from them) with
// URL credentials, `Bearer` tokens, ?token= parameters and known token formats redacted: users paste logs
// from authenticated pip indexes and attach the result to issues (reliability-3 N9).
void redact_log_text(Finding& f) {
  using platform::redact_credentials;
  f.title = redact_credentials(f.title);
  f.summary = redact_credentials(f.summary);
  f.explanation = redact_credentials(f.explanation);
  for (auto& e : f.evidence) e.value = redact_credentials(e.value);
  for (auto& fix : f.fixes) {
    fix.summary = redact_credentials(fix.summary);
    for (auto& c : fix.commands) c = redact_credentials(c);
  }
  redact_json_strings(f.details);
}

// The lines as Evidence ("line N" = text, from `source`) and, for readers that need the numbers, as
// details.lines (parallel to the evidence).
void add_lines(Finding& f, const std::vector<LineEvidence>& ev, const std::string& source) {
  auto lines = nlohmann::json::array();
  for (const auto& e : ev) {
    f.evidence.push_back({"line " + std::to_string(e.line), e.text, source});
    lines.push_back(e.line);
  }
  f.details["lines"] = lines;
}

Finding cause_finding(const Match& m, const std::string& source) {
  Finding f;
  f.id = m.id;
  f.status = Status::kInfo;  // an identified cause is a fact to act on, not a failed check
  f.title = m.title;
  f.summary = m.title;
  f.explanation = m.explanation;
  for (const auto& line : m.fix) {  // the shell lines of a fix sentence are its commands (model/fix_text.h)
    Fix fix = model::fix_from_text(line);
    f.add_fix(fix.summary, fix.commands);
  }
  f.references = m.sources;
  f.details = {{"confidence", round2(m.confidence)},
               {"root", m.root},
               {"captures", m.captures},
               {"first_line", m.first_line},
               {"signals", m.score.signals},
               {"signal_weight", round2(m.score.signal_weight)},
               {"discriminators", m.score.held}};
  add_lines(f, m.evidence, source);
  redact_log_text(f);
  return f;
}

Finding unknown_finding(const std::vector<LineEvidence>& error_lines, const InputSummary& input,
                        const std::vector<Candidate>& candidates) {
  Finding f;
  f.id = kUnknownCause;
  f.status = Status::kFail;
  f.title = "no known failure signature in this log";
  f.summary = "no known failure signature in " + input.name + " (" + std::to_string(input.lines) + " lines)";
  f.explanation = "None of the signatures in data/signatures matched. The evidence lists the last lines that look "
                  "like errors.";
  f.details = {{"confidence", 0.0},
               {"root", false},
               {"captures", nlohmann::json::object()},
               {"first_line", error_lines.empty() ? 0 : error_lines.front().line}};
  auto cands = nlohmann::json::array();
  for (const auto& c : candidates)
    cands.push_back({{"id", c.id}, {"confidence", round2(c.confidence)}, {"first_line", c.first_line}, {"why_not", c.why_not}});
  f.details["candidates"] = cands;
  add_lines(f, error_lines, input.name);
  redact_log_text(f);
  return f;
}

// Title and explanation must always render: a missing value shows as "?" rather than dropping the text.
std::string render_lenient(const std::vector<std::string>& alternatives, Vars vars, const FactCall& facts) {
  if (alternatives.empty()) return "";
  for (const auto& alt : alternatives)
    if (auto out = render_template(alt, vars, facts)) return *out;
  const std::string& tmpl = alternatives.back();
  for (const auto& name : template_placeholders(tmpl))
    if (name.find('(') == std::string::npos && !vars.count(name)) vars[name] = "?";
  auto out = render_template(tmpl, vars, facts);
  return out ? *out : tmpl;
}

// The value of a context signature that applies to a cause first seen at `line`: the last one before
// it (the package being installed when it failed), else the first one after it.
const std::map<std::string, std::string>* context_at(const SignatureHits& h, std::uint64_t line) {
  const std::map<std::string, std::string>* before = nullptr;
  for (const auto& [l, caps] : h.values) {
    if (l <= line) before = &caps;
    else return before ? before : &caps;
  }
  return before;
}

}  // namespace

Explanation build_explanation(const LogScanner& scanner, const std::string& name,
                              const std::vector<Signature>& signatures, const FactCall& facts) {
  Explanation ex;
  std::vector<Match> causes;
  ex.input.name = name;
  ex.input.bytes = scanner.bytes();
  ex.input.lines = scanner.lines();
  ex.input.long_lines = scanner.long_lines();
  ex.input.invalid_utf8_bytes = scanner.stats().invalid_utf8_bytes;
  ex.input.control_bytes = scanner.stats().control_bytes;
  ex.input.binary = ex.input.bytes > 0 && (ex.input.invalid_utf8_bytes + ex.input.control_bytes) * 10 > ex.input.bytes;
  if (ex.input.bytes == 0) ex.notes.push_back("the input is empty: paste or pass the log of the failing command");
  if (ex.input.binary)
    ex.notes.push_back("the input does not look like a text log (" +
                       std::to_string(ex.input.invalid_utf8_bytes + ex.input.control_bytes) + " of " +
                       std::to_string(ex.input.bytes) + " bytes are not text)");
  if (ex.input.long_lines > 0)
    ex.notes.push_back(std::to_string(ex.input.long_lines) + " line(s) longer than " +
                       std::to_string(kSegmentBytes / 1024) + " KiB, read in overlapping " +
                       std::to_string(kSegmentBytes / 1024) + " KiB segments");

  const auto& hits = scanner.hits();
  auto index_of = [&](const std::string& id) {
    for (std::size_t k = 0; k < signatures.size(); ++k)
      if (signatures[k].id == id) return k;
    return signatures.size();
  };
  // Each cause that matched anything: its facts (captures, then the context values near it) and whether
  // they name it.
  std::vector<std::map<std::string, std::string>> facts_of(signatures.size());
  std::vector<CauseScore> scores(signatures.size());
  for (std::size_t i = 0; i < signatures.size(); ++i) {
    if (signatures[i].kind != "cause" || hits[i].hits == 0) continue;
    auto& f = facts_of[i];
    f = hits[i].captures;
    for (std::size_t k = 0; k < signatures.size(); ++k) {
      if (signatures[k].kind != "context" || hits[k].values.empty()) continue;
      if (const auto* caps = context_at(hits[k], hits[i].first_line))
        for (const auto& [key, v] : *caps) f.emplace(key, v);
    }
    scores[i] = score_cause(signatures[i], hits[i], f);
  }
  auto named = [&](std::size_t i) { return signatures[i].kind == "cause" && hits[i].hits > 0 && scores[i].named; };
  // A generic signature yields to a more specific one, named, that explains the very same lines (an
  // undefined torch symbol is also an undefined symbol).
  std::vector<bool> dropped(signatures.size(), false);
  for (std::size_t i = 0; i < signatures.size(); ++i) {
    if (!named(i)) continue;
    for (const auto& other : signatures[i].overridden_by) {
      std::size_t k = index_of(other);
      if (k == signatures.size() || !named(k)) continue;
      bool all_covered = std::all_of(hits[i].evidence.begin(), hits[i].evidence.end(), [&](const auto& ev) {
        return std::any_of(hits[k].evidence.begin(), hits[k].evidence.end(),
                           [&](const auto& ov) { return ov.first == ev.first; });
      });
      if (all_covered) dropped[i] = true;
    }
  }
  std::set<std::string> present;
  std::vector<Candidate> candidates;
  for (std::size_t i = 0; i < signatures.size(); ++i) {
    if (named(i) && !dropped[i]) present.insert(signatures[i].id);
    else if (signatures[i].kind == "cause" && hits[i].hits > 0 && !scores[i].named)
      candidates.push_back({signatures[i].id, scores[i].confidence, hits[i].first_line, scores[i].why_not});
  }

  for (std::size_t i = 0; i < signatures.size(); ++i) {
    const Signature& sig = signatures[i];
    const SignatureHits& h = hits[i];
    if (!named(i) || dropped[i]) continue;
    Match c;
    c.id = sig.id;
    c.score = scores[i];
    c.captures = facts_of[i];
    const Signature* shown = &sig;  // after reclassification, the texts of the cause reported
    for (const auto& r : sig.reclassify) {
      bool applies = std::all_of(r.when.begin(), r.when.end(), [&](const Condition& w) { return holds(w, c.captures); });
      if (applies && !r.condition.empty()) applies = render_template("{" + r.condition + "}", {}, facts).has_value();
      std::size_t k = index_of(r.id);
      if (applies && k < signatures.size()) {
        shown = &signatures[k];
        c.id = r.id;
        break;
      }
    }
    c.first_line = h.first_line;
    c.confidence = c.score.confidence;
    for (const auto& [line, text] : h.evidence) c.evidence.push_back({line, text});
    sort_by_line(c.evidence);
    c.title = render_lenient(shown->title, c.captures, facts);
    c.explanation = render_lenient(shown->explanation, c.captures, facts);
    for (const auto& step : shown->fix)
      for (const auto& alt : step.alternatives)
        if (auto line = render_template(alt, c.captures, facts)) {
          c.fix.push_back(*line);
          break;
        }
    c.sources = shown->sources;
    if (std::any_of(causes.begin(), causes.end(), [&](const Match& o) { return o.id == c.id; })) {
      // Reclassified onto a cause also found directly: keep one, with the evidence of both.
      for (auto& o : causes)
        if (o.id == c.id) {
          o.evidence.insert(o.evidence.end(), c.evidence.begin(), c.evidence.end());
          sort_by_line(o.evidence);
          o.first_line = std::min(o.first_line, c.first_line);
          o.confidence = std::max(o.confidence, c.confidence);
        }
      continue;
    }
    causes.push_back(std::move(c));
  }
  std::stable_sort(causes.begin(), causes.end(),
                   [](const Match& a, const Match& b) { return a.first_line < b.first_line; });
  // The root is the earliest failure that is not explained by another one found in the same log.
  for (std::size_t i = 0; i < causes.size(); ++i) {
    const Signature* sig = &signatures[index_of(causes[i].id)];
    bool consequence = std::any_of(sig->consequence_of.begin(), sig->consequence_of.end(),
                                   [&](const std::string& id) { return present.count(id) > 0; });
    if (!consequence) {
      causes[i].root = true;
      break;
    }
  }
  if (!causes.empty() && std::none_of(causes.begin(), causes.end(), [](const Match& c) { return c.root; }))
    causes.front().root = true;
  for (const auto& c : causes) ex.causes.push_back(cause_finding(c, name));
  std::vector<LineEvidence> error_lines;
  for (const auto& [line, text] : scanner.error_lines()) error_lines.push_back({line, text});
  ex.unknown = unknown_finding(error_lines, ex.input, candidates);
  return ex;
}

Explanation explain_stream(std::istream& in, const std::string& name, const std::vector<Signature>& signatures,
                           const FactCall& facts, ScanOptions options, std::string_view already_read) {
  LogScanner scanner(signatures, options);
  scanner.feed(already_read);
  std::unique_ptr<char[]> buf(new char[kChunkBytes]);  // uninitialised: read() fills what is used
  errno = 0;
  while (in) {
    in.read(buf.get(), static_cast<std::streamsize>(kChunkBytes));
    auto got = in.gcount();
    if (got > 0) scanner.feed(std::string_view(buf.get(), static_cast<std::size_t>(got)));
  }
  // The reason is the failed read(2)'s (/proc/self/mem: "Input/output error").
  if (in.bad()) throw InputError("cannot read " + name + ": " + (errno ? std::strerror(errno) : "read error"));
  scanner.finish();
  return build_explanation(scanner, name, signatures, facts);
}

Explanation explain_text(const std::string& text, const std::vector<Signature>& signatures, const FactCall& facts,
                         ScanOptions options) {
  LogScanner scanner(signatures, options);
  scanner.feed(text);
  scanner.finish();
  return build_explanation(scanner, "<text>", signatures, facts);
}

}  // namespace gpucheck::explain
