#include "render/terminal.h"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "core/text.h"
#include "render/text_blocks.h"

namespace gpucheck::render {

using model::Summary;

namespace {
const char* colour_of(Status s) {
  switch (s) {
    case Status::kPass: return "\033[32m";
    case Status::kInfo: return "\033[34m";
    case Status::kWarn: return "\033[33m";
    case Status::kSkip: return "\033[36m";
    case Status::kFail: return "\033[31;1m";
    case Status::kError: return "\033[35;1m";
  }
  return "";
}
}  // namespace

std::string status_label(Status s, bool color) {
  std::string name = to_string(s);
  if (s == Status::kFail || s == Status::kError)
    for (auto& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string padded = fmt::format("{:<5}", name);
  return color ? std::string(colour_of(s)) + padded + "\033[0m" : padded;
}

std::string result_line(const Finding& r, bool color) {
  return fmt::format("{}  {:<24} {:>7.2f}s  {}", status_label(r.status, color), r.id, r.duration_s, r.summary);
}

std::string result_details(const Finding& r, bool verbose) {
  // The same evidence and advice lines as every other command's findings (text_blocks.h), indented
  // under the result line.
  const std::string indent(9, ' ');
  bool interesting = r.status == Status::kFail || r.status == Status::kError || r.status == Status::kWarn;
  std::ostringstream out;
  if (verbose || interesting) text::evidence_lines(r, indent, out);
  if (verbose)
    for (auto& m : r.metrics) out << fmt::format("{}{} = {} {}\n", indent, m.name, m.value, m.unit);
  for (auto& d : r.devices)
    if (verbose || d.status != Status::kPass)
      out << fmt::format("{}[{}] {} {}\n", indent, d.device, to_string(d.status), d.summary);
  if (interesting) text::advice_lines(r, indent, verbose, out);
  return out.str();
}

std::string skipped_lines(const std::vector<const Finding*>& skipped, bool color, bool verbose) {
  std::vector<std::pair<std::string, std::vector<const Finding*>>> by_reason;  // in order of first appearance
  for (const auto* f : skipped) {
    auto it = std::find_if(by_reason.begin(), by_reason.end(), [&](const auto& g) { return g.first == f->summary; });
    if (verbose || it == by_reason.end()) by_reason.push_back({f->summary, {f}});
    else it->second.push_back(f);
  }
  std::string out;
  for (const auto& [reason, group] : by_reason) {
    if (group.size() == 1) {
      out += result_line(*group[0], color) + "\n" + result_details(*group[0], verbose);
      continue;
    }
    std::vector<std::string> ids;
    for (const auto* f : group) ids.push_back(f->id);
    out += fmt::format("{}  {} probes skipped: {}\n         ({})\n", status_label(Status::kSkip, color), group.size(),
                       reason, join(ids, ", "));
  }
  return out;
}

std::string summary_line(const Summary& s, bool color) {
  std::string verdict = s.verdict;
  if (color) verdict = (s.exit_code != 0 ? "\033[31;1m" : s.verdict == "PASS" ? "\033[32;1m" : "\033[33;1m") + verdict + "\033[0m";
  std::string info = s.counts.at("info") ? fmt::format(", {} info", s.counts.at("info")) : "";
  return fmt::format("{}: {} pass, {} warn, {} skip, {} fail, {} error{} (exit {})", verdict, s.counts.at("pass"),
                     s.counts.at("warn"), s.counts.at("skip"), s.counts.at("fail"), s.counts.at("error"), info,
                     s.exit_code);
}

void text::run(const model::Report& r, std::ostream& out, const RenderOptions& o) {
  if (!o.summary_only) {
    std::vector<const Finding*> skipped;
    for (const auto* f : r.findings())
      if (f->status == Status::kSkip) skipped.push_back(f);
      else out << result_line(*f, o.color) << "\n" << result_details(*f, o.verbose);
    out << skipped_lines(skipped, o.color, o.verbose);
  }
  if (!o.report_path.empty()) out << "report: " << on_one_line(terminal_safe(o.report_path)) << "\n";
}

}  // namespace gpucheck::render
