// JUnit XML (the Ant format CI systems read): one testsuite per report section, one testcase per finding
// and one per device of a finding, so a CI dashboard shows which probe failed on which GPU.
#include <string>

#include <fmt/format.h>

#include "core/text.h"
#include "model/verdict.h"
#include "render/render.h"
#include "render/terminal_safe.h"
#include "render/xml_chars.h"

namespace gpucheck::render {
namespace {

// Text and attribute values; terminal_safe already left only UTF-8 without control bytes (but \n, \t).
std::string xml(const std::string& unchecked) {
  const std::string s = xml_allowed_chars(unchecked);  // U+FFFE, U+FFFF: not XML 1.0 characters
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      case '\n': out += "&#10;"; break;
      case '\t': out += "&#9;"; break;
      default: out += c;
    }
  }
  return out;
}

// The text of a failure: summary, evidence and fixes, one per line.
std::string body(const std::string& summary, const EvidenceList& evidence, const std::vector<Fix>& fixes) {
  std::string out = summary + "\n";
  for (auto& e : evidence) out += e.what + ": " + e.value + "\n";
  for (auto& f : fixes) {
    out += "fix: " + f.summary + "\n";
    for (auto& c : f.commands) out += "  $ " + c + "\n";
  }
  return out;
}

// `message` is what a CI page lists beside a failure: the finding's title (its summary when it has none).
void outcome(Status s, const std::string& message, const std::string& text, std::ostream& out) {
  switch (s) {
    case Status::kFail:
      out << fmt::format("      <failure message=\"{}\" type=\"fail\">{}</failure>\n", xml(message), xml(text));
      break;
    case Status::kError:
      out << fmt::format("      <error message=\"{}\" type=\"error\">{}</error>\n", xml(message), xml(text));
      break;
    case Status::kSkip: out << fmt::format("      <skipped message=\"{}\"/>\n", xml(message)); break;
    default: break;  // pass, info and warn are passing testcases; a warning's text is in system-out
  }
}

struct Counts {
  int tests = 0, failures = 0, errors = 0, skipped = 0;
  void add(Status s) {
    ++tests;
    failures += s == Status::kFail;
    errors += s == Status::kError;
    skipped += s == Status::kSkip;
  }
};

// "2026-12-01T12:16:43Z" -> "2026-12-01T12:16:43": the format's timestamp carries no zone.
std::string junit_time(const std::string& iso) {
  return iso.size() >= 19 ? iso.substr(0, 19) : "1970-01-01T00:00:00";
}

}  // namespace

void render_junit(const model::Report& unsafe, std::ostream& out, const RenderOptions& o) {
  const model::Report r = terminal_safe_copy(unsafe);
  const model::Verdict v = model::verdict(r, o.program);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
  int id = 0;
  // A report without sections still carries its verdict: one empty testsuite holds its properties.
  const std::vector<model::Section> sections = r.sections.empty() ? std::vector<model::Section>{{"report", {}}} : r.sections;
  for (auto& section : sections) {
    Counts n;
    double seconds = 0;
    std::string cases, warnings;
    for (auto& f : section.findings) {
      std::ostringstream c;
      n.add(f.status);
      seconds += f.duration_s;
      c << fmt::format("    <testcase name=\"{}\" classname=\"gpucheck.{}\" time=\"{:.3f}\">\n", xml(f.id),
                       xml(section.name), f.duration_s);
      outcome(f.status, f.title.empty() ? f.summary : f.title, body(f.summary, f.evidence, f.fixes), c);
      c << "    </testcase>\n";
      for (auto& d : f.devices) {
        n.add(d.status);
        c << fmt::format("    <testcase name=\"{}[{}]\" classname=\"gpucheck.{}\" time=\"0\">\n", xml(f.id),
                         xml(d.device), xml(section.name));
        outcome(d.status, d.summary, body(d.summary, d.evidence, {}), c);
        c << "    </testcase>\n";
      }
      // A passing testcase that needs attention (a warning, an explained cause with its fix): its text here.
      if (model::needs_attention(f) && f.status != Status::kFail && f.status != Status::kError)
        warnings += std::string(to_string(f.status)) + " " + f.id + ": " + body(f.summary, f.evidence, f.fixes);
      cases += c.str();
    }
    out << fmt::format(
        "  <testsuite package=\"gpucheck\" id=\"{}\" name=\"{}.{}\" timestamp=\"{}\" hostname=\"{}\" tests=\"{}\" "
        "failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3f}\">\n",
        id++, xml(r.meta.command), xml(section.name), junit_time(r.meta.started_at),
        xml(r.meta.hostname.empty() ? "localhost" : r.meta.hostname), n.tests, n.failures, n.errors, n.skipped,
        seconds);
    out << "    <properties>\n";
    out << fmt::format("      <property name=\"gpucheck.version\" value=\"{}\"/>\n", xml(r.meta.tool_version));
    if (!r.meta.level.empty())
      out << fmt::format("      <property name=\"gpucheck.level\" value=\"{}\"/>\n", xml(r.meta.level));
    out << fmt::format("      <property name=\"gpucheck.verdict\" value=\"{}\"/>\n", xml(v.word));
    out << fmt::format("      <property name=\"gpucheck.verdict_line\" value=\"{}\"/>\n", xml(v.line));
    out << fmt::format("      <property name=\"gpucheck.exit_code\" value=\"{}\"/>\n", v.exit_code);
    if (!v.next.advice.empty())
      out << fmt::format("      <property name=\"gpucheck.next_step\" value=\"{}\"/>\n", xml(v.next.advice));
    if (!v.next.command.empty())
      out << fmt::format("      <property name=\"gpucheck.next_command\" value=\"{}\"/>\n", xml(v.next.command));
    out << "    </properties>\n" << cases;
    out << fmt::format("    <system-out>{}</system-out>\n    <system-err></system-err>\n", xml(warnings));
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
}

}  // namespace gpucheck::render
