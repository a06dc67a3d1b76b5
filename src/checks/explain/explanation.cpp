#include "checks/explain/explanation.h"

#include <cmath>

#include <fmt/format.h>

namespace gpucheck::explain {
namespace {

nlohmann::json evidence_json(const std::vector<Evidence>& ev) {
  auto a = nlohmann::json::array();
  for (const auto& e : ev) a.push_back({{"line", e.line}, {"text", e.text}});
  return a;
}

double round2(double v) { return std::round(v * 100.0) / 100.0; }

}  // namespace

nlohmann::json to_json(const Explanation& e) {
  auto causes = nlohmann::json::array();
  for (const auto& c : e.causes)
    causes.push_back({{"id", c.id},
                      {"title", c.title},
                      {"confidence", round2(c.confidence)},
                      {"root", c.root},
                      {"evidence", evidence_json(c.evidence)},
                      {"captures", c.captures},
                      {"explanation", c.explanation},
                      {"fix", c.fix},
                      {"sources", c.sources}});
  if (e.causes.empty())
    causes.push_back({{"id", "unknown"},
                      {"title", "no known failure signature in this log"},
                      {"confidence", 0.0},
                      {"root", false},
                      {"evidence", evidence_json(e.error_lines)},
                      {"captures", nlohmann::json::object()},
                      {"explanation", "None of the signatures in data/signatures matched. The evidence lists the "
                                      "last lines that look like errors."},
                      {"fix", nlohmann::json::array()},
                      {"sources", nlohmann::json::array()}});
  return {{"schema_version", "1"},
          {"identified", e.identified()},
          {"causes", causes},
          {"input",
           {{"name", e.input.name},
            {"bytes", e.input.bytes},
            {"lines", e.input.lines},
            {"long_lines", e.input.long_lines},
            {"invalid_utf8_bytes", e.input.invalid_utf8_bytes},
            {"control_bytes", e.input.control_bytes},
            {"binary", e.input.binary}}},
          {"notes", e.notes}};
}

std::string render_text(const Explanation& e, bool color) {
  auto paint = [&](const char* code, const std::string& s) {
    return color ? fmt::format("\x1b[{}m{}\x1b[0m", code, s) : s;
  };
  std::string out;
  for (const auto& n : e.notes) out += paint("2", "note: " + n) + "\n";
  if (e.causes.empty()) {
    out += paint("33", "unknown") + ": no known failure signature in " + e.input.name + " (" +
           std::to_string(e.input.lines) + " lines)\n";
    if (!e.error_lines.empty()) {
      out += "  last error-looking lines:\n";
      for (const auto& ev : e.error_lines) out += fmt::format("  {:>7} | {}\n", ev.line, ev.text);
    }
    return out;
  }
  std::size_t i = 0;
  for (const auto& c : e.causes) {
    ++i;
    out += fmt::format("{}{} [{}] {}{}\n", i > 1 ? "\n" : "", paint("1", fmt::format("{}.", i)),
                       paint(c.root ? "31;1" : "33", c.id), c.title,
                       c.root ? paint("31", "  (root cause)") : std::string());
    out += fmt::format("   confidence {:.2f}\n", c.confidence);
    out += "   evidence:\n";
    for (const auto& ev : c.evidence) out += fmt::format("   {:>7} | {}\n", ev.line, ev.text);
    out += "   why: " + c.explanation + "\n";
    if (!c.fix.empty()) {
      out += "   fix:\n";
      for (const auto& f : c.fix) out += "     " + paint("32", "- " + f) + "\n";
    }
  }
  return out;
}

}  // namespace gpucheck::explain
