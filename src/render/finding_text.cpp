// The block every command uses to show one Finding, and the plain rendering of any report.
#include <sstream>

#include "core/text.h"
#include "model/verdict.h"
#include "render/text_blocks.h"

namespace gpucheck::render::text {
namespace {

const char* colour_of(Status s) {
  switch (s) {
    case Status::kPass: return "\033[32m";
    case Status::kInfo: return "\033[36m";
    case Status::kSkip: return "\033[36m";
    case Status::kWarn: return "\033[33m";
    case Status::kFail: return "\033[31m";
    case Status::kError: return "\033[35;1m";
  }
  return "";
}

}  // namespace

std::string status_word(Status s, bool color) {
  std::string word;
  switch (s) {
    case Status::kFail: word = "ERROR"; break;  // a failed check is an error to the reader
    case Status::kError: word = "NO VERDICT"; break;
    default: word = to_string(s); for (auto& ch : word) ch = static_cast<char>(std::toupper(ch)); break;
  }
  if (word.size() < 5) word += std::string(5 - word.size(), ' ');
  return color ? std::string(colour_of(s)) + word + "\033[0m" : word;
}

void fix_block(const Fix& fix, const std::string& indent, std::ostream& out) {
  out << indent << fix.rank << ". " << fix.summary << "\n";
  for (const auto& c : fix.commands) out << indent << "     $ " << c << "\n";
  if (!fix.cost.empty()) out << indent << "     cost: " << fix.cost << "\n";
}

void evidence_lines(const Finding& f, const std::string& indent, std::ostream& out) {
  for (const auto& e : f.evidence) {
    std::vector<std::string> lines = split(e.value, '\n');
    out << indent << e.what << ": " << (lines.empty() ? "" : lines[0]) << (e.source.empty() ? "" : "  (" + e.source + ")")
        << "\n";
    for (std::size_t i = 1; i < lines.size(); ++i) out << indent << "  | " << lines[i] << "\n";
  }
}

void advice_lines(const Finding& f, const std::string& indent, bool verbose, std::ostream& out) {
  if (!f.explanation.empty()) out << indent << "why: " << f.explanation << "\n";
  if (!f.fixes.empty()) out << indent << "fix, best first:\n";
  for (const auto& fx : f.fixes) fix_block(fx, indent, out);
  if (verbose)
    for (const auto& ref : f.references) out << indent << "source: " << ref << "\n";
}

void finding_block(const Finding& f, std::ostream& out, const RenderOptions& o) {
  out << status_word(f.status, o.color) << " " << f.title << "  [" << f.id << "]\n";
  if (!f.summary.empty() && f.summary != f.title) out << "      " << f.summary << "\n";
  evidence_lines(f, "      ", out);
  advice_lines(f, "      ", o.verbose, out);
}

void closing(const model::Report& r, std::ostream& out, const RenderOptions& o) {
  const model::Verdict v = model::verdict(r, o.program);
  std::string verdict = v.line;
  if (!verdict.empty()) {
    const std::size_t colon = verdict.find(':');
    const char* paint = v.tone == "fail" ? "\033[31;1m" : v.tone == "pass" ? "\033[32;1m" : "\033[33;1m";
    if (o.color && colon != std::string::npos) verdict = paint + verdict.substr(0, colon) + "\033[0m" + verdict.substr(colon);
    out << verdict << "\n";
  }
  const model::NextStep& step = v.next;
  if (step.advice.empty()) return;
  out << (o.color ? "\033[1mNext step:\033[0m " : "Next step: ") << step.advice << "\n";
  if (!step.command.empty()) out << "  $ " << step.command << "\n";
}

void findings(const model::Report& r, std::ostream& out, const RenderOptions& o) {
  for (const auto& n : r.notes) out << "note: " << n << "\n";
  for (const auto& s : r.sections)
    for (const auto& f : s.findings)
      if (!o.quiet || severity(f.status) >= severity(Status::kWarn)) finding_block(f, out, o);
}

}  // namespace gpucheck::render::text
