// The block every command uses to show one Finding, and the plain rendering of any report.
#include <sstream>

#include "core/text.h"
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

// Greedy word wrap of `text` to `width` columns; continuation lines start with `indent`.
std::string wrap(const std::string& text, std::size_t first_used, std::size_t width, const std::string& indent) {
  if (width <= first_used + 10 || text.size() + first_used <= width) return text;
  std::string out, line;
  std::size_t used = first_used;
  for (const auto& word : split(text, ' ')) {
    if (!line.empty() && used + 1 + word.size() > width) {
      out += line + "\n" + indent;
      line.clear();
      used = indent.size();
    }
    if (!line.empty()) { line += ' '; ++used; }
    line += word;
    used += word.size();
  }
  return out + line;
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

void finding_block(const Finding& f, std::ostream& out, const RenderOptions& o) {
  const std::size_t width = static_cast<std::size_t>(o.width);
  out << status_word(f.status, o.color) << " " << f.title << "  [" << f.id << "]\n";
  if (!f.summary.empty() && f.summary != f.title) out << "      " << wrap(f.summary, 6, width, "      ") << "\n";
  for (const auto& e : f.evidence)
    out << "      " << e.what << ": " << e.value << (e.source.empty() ? "" : "  (" + e.source + ")") << "\n";
  if (!f.explanation.empty()) out << "      why: " << wrap(f.explanation, 11, width, "           ") << "\n";
  if (!f.fixes.empty()) out << "      fix, best first:\n";
  for (const auto& fx : f.fixes) fix_block(fx, "      ", out);
  if (o.verbose)
    for (const auto& ref : f.references) out << "      source: " << ref << "\n";
}

void findings(const report::Report& r, std::ostream& out, const RenderOptions& o) {
  for (const auto& n : r.notes) out << "note: " << n << "\n";
  for (const auto& s : r.sections)
    for (const auto& f : s.findings)
      if (!o.quiet || severity(f.status) >= severity(Status::kWarn)) finding_block(f, out, o);
}

}  // namespace gpucheck::render::text
