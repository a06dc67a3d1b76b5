// `gpucheck explain` as a person reads it: per cause a numbered verdict line (the root marked), its
// confidence, the evidence lines with their numbers, why, and the fix steps; for an unexplained log the
// last error-looking lines. Reads only the Report: section "causes", details.input, notes.
#include <algorithm>

#include <fmt/format.h>

#include "render/text_blocks.h"

namespace gpucheck::render::text {
namespace {

// Line number k of a finding's evidence (details.lines, parallel to the evidence); 0 when absent.
std::uint64_t line_of(const Finding& f, std::size_t k) {
  const auto& lines = f.details.is_object() ? f.details.value("lines", nlohmann::json::array()) : nlohmann::json::array();
  return k < lines.size() && lines[k].is_number_unsigned() ? lines[k].get<std::uint64_t>() : 0;
}

bool detail_flag(const Finding& f, const char* key) {
  return f.details.is_object() && f.details.value(key, false);
}

double detail_number(const Finding& f, const char* key) {
  return f.details.is_object() ? f.details.value(key, 0.0) : 0.0;
}

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

// details.similar of a finding: each case's thread and the fix that solved it, two lines each, fitting
// the terminal (a URL is never cut: it is the thing to open).
void similar_block(const Finding& f, const std::string& indent, std::ostream& out, int width) {
  if (!f.details.is_object() || !f.details.contains("similar") || f.details["similar"].empty()) return;
  out << indent << "similar reports:\n";
  for (const auto& c : f.details["similar"]) {
    out << indent << "  - " << c.value("url", std::string()) << fmt::format("  ({:.2f})", c.value("score", 0.0)) << "\n";
    std::string cause = c.value("cause", std::string());
    std::string fix = c.value("fix", std::string());
    std::string line = cause == f.id ? "" : "[" + cause + "] ";
    line += fix.empty() ? "fix not recorded: read the thread"
                        : "fix: " + fix + (c.value("fix_confirmed", false) ? " (confirmed)" : " (suggested)");
    out << fit(indent + "    " + line, width) << "\n";
  }
}

}  // namespace

void explain_causes(const report::Report& r, std::ostream& out, const RenderOptions& o);

// A pasted environment report (collect_env) judged by the doctor's rules: its findings as doctor shows them.
void environment_block(const report::Report& r, std::ostream& out, const RenderOptions& o) {
  const report::Section* env = r.find_section("environment");
  if (!env) return;
  out << "\nenvironment report in the log (collect_env), judged by the doctor's rules:\n";
  if (env->findings.empty()) out << "  no findings about that stack\n";
  for (const auto& f : env->findings) finding_block(f, out, o);
}

void explain(const report::Report& r, std::ostream& out, const RenderOptions& o) {
  explain_causes(r, out, o);
  if (!o.quiet) environment_block(r, out, o);
}

void explain_causes(const report::Report& r, std::ostream& out, const RenderOptions& o) {
  auto paint = [&](const char* code, const std::string& s) {
    return o.color ? fmt::format("\x1b[{}m{}\x1b[0m", code, s) : s;
  };
  static const std::vector<Finding> kNone;
  const report::Section* section = r.find_section("causes");
  const auto& causes = section ? section->findings : kNone;
  const bool identified = !causes.empty() && causes.front().status != Status::kFail;
  // --quiet: an unexplained log is told by the exit code alone.
  if (o.quiet && !identified) return;

  for (const auto& n : r.notes) out << paint("2", "note: " + n) << "\n";
  if (!identified) {
    const nlohmann::json input = r.details.is_object() ? r.details.value("input", nlohmann::json::object())
                                                        : nlohmann::json::object();
    out << paint("33", "unknown") << ": no known failure signature in " << input.value("name", std::string("-"))
        << " (" << input.value("lines", std::uint64_t{0}) << " lines)\n";
    if (!causes.empty() && !causes.front().evidence.empty()) {
      const Finding& unknown = causes.front();
      out << "  last error-looking lines:\n";
      for (std::size_t k = 0; k < unknown.evidence.size(); ++k)
        out << fmt::format("  {:>7} | {}\n", line_of(unknown, k), unknown.evidence[k].value);
    }
    // Causes that matched something but are not named: too weak, or the log's context says otherwise.
    if (!causes.empty() && causes.front().details.is_object() && causes.front().details.contains("candidates") &&
        !causes.front().details["candidates"].empty()) {
      out << "  not named (unknown beats a wrong cause):\n";
      for (const auto& c : causes.front().details["candidates"])
        out << fmt::format("    {} ({:.2f}): {}\n", c.value("id", std::string("?")), c.value("confidence", 0.0),
                           c.value("why_not", std::string()));
    }
    if (!causes.empty()) similar_block(causes.front(), "  ", out, o.width);
    return;
  }
  std::size_t i = 0;
  for (const auto& c : causes) {
    ++i;
    const bool root = detail_flag(c, "root");
    out << fmt::format("{}{} [{}] {}{}\n", i > 1 ? "\n" : "", paint("1", fmt::format("{}.", i)),
                       paint(root ? "31;1" : "33", c.id), c.title, root ? paint("31", "  (root cause)") : std::string());
    out << fmt::format("   confidence {:.2f}\n", detail_number(c, "confidence"));
    out << "   evidence:\n";
    for (std::size_t k = 0; k < c.evidence.size(); ++k)
      out << fmt::format("   {:>7} | {}\n", line_of(c, k), c.evidence[k].value);
    advice_lines(c, "   ", o.verbose, out);
    similar_block(c, "   ", out, o.width);
  }
}

}  // namespace gpucheck::render::text
