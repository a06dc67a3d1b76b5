#include "render/terminal.h"

#include <fmt/format.h>

#include "core/text.h"
#include "render/text_blocks.h"

namespace gpucheck::render {

using report::Summary;

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
  bool interesting = r.status == Status::kFail || r.status == Status::kError || r.status == Status::kWarn;
  std::string out;
  if (verbose || interesting) {
    for (auto& e : r.evidence) {
      std::vector<std::string> lines = split(e.value, '\n');
      out += fmt::format("         {}: {}\n", e.what, lines[0]);
      for (std::size_t i = 1; i < lines.size(); ++i) out += fmt::format("           | {}\n", lines[i]);
    }
  }
  if (verbose)
    for (auto& m : r.metrics) out += fmt::format("         {} = {} {}\n", m.name, m.value, m.unit);
  for (auto& d : r.devices)
    if (verbose || d.status != Status::kPass)
      out += fmt::format("         [{}] {} {}\n", d.device, to_string(d.status), d.summary);
  if (interesting)
    for (auto& fix : r.fixes) {
      out += fmt::format("         fix: {}\n", fix.summary);
      for (auto& command : fix.commands) out += fmt::format("           $ {}\n", command);
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

void text::run(const report::Report& r, std::ostream& out, const RenderOptions& o) {
  if (!o.summary_only)
    for (const auto* f : r.findings()) out << result_line(*f, o.color) << "\n" << result_details(*f, o.verbose);
  out << summary_line(report::summarize(r), o.color) << "\n";
}

}  // namespace gpucheck::render
