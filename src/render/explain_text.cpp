// `gpucheck explain` as a person reads it: per cause a numbered verdict line (the root marked), its
// confidence, the evidence lines with their numbers, why, and the fix steps; for an unexplained log the
// last error-looking lines. Reads only the Report: section "causes" and each cause's typed details
// (model::explain_cause), the typed ExplainDetails (the input read), notes.
#include <algorithm>

#include <fmt/format.h>

#include "render/text_blocks.h"

namespace gpucheck::render::text {
namespace {

// Line number k of a cause's evidence (parallel to the evidence); 0 when absent.
std::uint64_t line_of(const model::ExplainCause& c, std::size_t k) { return k < c.lines.size() ? c.lines[k] : 0; }

// At most `width` display columns (counting UTF-8 characters), "..." marking a cut.
std::string fit(const std::string& s, int width) {
  std::size_t cols = 0, i = 0, cut = std::string::npos;
  const std::size_t w = static_cast<std::size_t>(std::max(width, 8));
  for (; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) continue;
    if (cols == w - 3) cut = i;
    if (++cols > w) return s.substr(0, cut) + "...";
  }
  return s;
}

// The similar reports of a cause: each case's thread and the fix that solved it, two lines each, fitting
// the terminal (a URL is never cut: it is the thing to open).
void similar_block(const Finding& f, const model::ExplainCause& cause_of_f, const std::string& indent,
                   std::ostream& out, int width) {
  if (cause_of_f.similar.empty()) return;
  out << indent << "similar reports:\n";
  for (const auto& c : cause_of_f.similar) {
    out << indent << "  - " << c.url << fmt::format("  ({:.2f})", c.score) << "\n";
    std::string line = c.cause == f.id ? "" : "[" + c.cause + "] ";
    line += c.fix.empty() ? "fix not recorded: read the thread"
                          : "fix: " + c.fix + (c.fix_confirmed ? " (confirmed)" : " (suggested)");
    out << fit(indent + "    " + line, width) << "\n";
  }
}

}  // namespace

void explain_causes(const model::Report& r, const model::ExplainDetails& d, std::ostream& out, const RenderOptions& o);

// A pasted environment report (collect_env) judged by the doctor's rules: its findings as doctor shows them.
void environment_block(const model::Report& r, std::ostream& out, const RenderOptions& o) {
  const model::Section* env = r.find_section("environment");
  if (!env) return;
  out << "\nenvironment report in the log (collect_env), judged by the doctor's rules:\n";
  if (env->findings.empty()) out << "  no findings about that stack\n";
  for (const auto& f : env->findings) finding_block(f, out, o);
}

void explain(const model::Report& r, const model::ExplainDetails& d, std::ostream& out, const RenderOptions& o) {
  explain_causes(r, d, out, o);
  if (!o.quiet) environment_block(r, out, o);
}

void explain_causes(const model::Report& r, const model::ExplainDetails& d, std::ostream& out, const RenderOptions& o) {
  auto paint = [&](const char* code, const std::string& s) {
    return o.color ? fmt::format("\x1b[{}m{}\x1b[0m", code, s) : s;
  };
  static const std::vector<Finding> kNone;
  const model::Section* section = r.find_section("causes");
  const auto& causes = section ? section->findings : kNone;
  const bool identified = !causes.empty() && causes.front().status != Status::kFail;
  // --quiet: an unexplained log is told by the exit code alone.
  if (o.quiet && !identified) return;

  for (const auto& n : r.notes) out << paint("2", "note: " + n) << "\n";
  if (!identified) {
    out << paint("33", "unknown") << ": no known failure signature in " << d.input.name << " (" << d.input.lines
        << " lines)\n";
    if (causes.empty()) return;
    const Finding& unknown = causes.front();
    const model::ExplainCause about = model::explain_cause(unknown);
    if (!unknown.evidence.empty()) {
      out << "  last error-looking lines:\n";
      for (std::size_t k = 0; k < unknown.evidence.size(); ++k)
        out << fmt::format("  {:>7} | {}\n", line_of(about, k), unknown.evidence[k].value);
    }
    // Causes that matched something but are not named: too weak, or the log's context says otherwise.
    if (!about.candidates.empty()) {
      out << "  not named (unknown beats a wrong cause):\n";
      for (const auto& c : about.candidates) out << fmt::format("    {} ({:.2f}): {}\n", c.id, c.confidence, c.why_not);
    }
    similar_block(unknown, about, "  ", out, o.width);
    return;
  }
  std::size_t i = 0;
  for (const auto& c : causes) {
    ++i;
    const model::ExplainCause about = model::explain_cause(c);
    const bool root = about.root;
    out << fmt::format("{}{} [{}] {}{}\n", i > 1 ? "\n" : "", paint("1", fmt::format("{}.", i)),
                       paint(root ? "31;1" : "33", c.id), c.title, root ? paint("31", "  (root cause)") : std::string());
    out << fmt::format("   confidence {:.2f}\n", about.confidence);
    out << "   evidence:\n";
    for (std::size_t k = 0; k < c.evidence.size(); ++k)
      out << fmt::format("   {:>7} | {}\n", line_of(about, k), c.evidence[k].value);
    advice_lines(c, "   ", o.verbose, out);
    similar_block(c, about, "   ", out, o.width);
  }
}

}  // namespace gpucheck::render::text
