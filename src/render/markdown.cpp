// The summary to paste into an issue instead of collect_env: what was run, the stack, what needs
// attention with its evidence and fixes, then every check in one table. Nothing secret: the report's
// environment and inventory paths stay out except the few stack facts.
#include <string>

#include <fmt/format.h>

#include "core/text.h"
#include "model/verdict.h"
#include "render/render.h"
#include "render/stack_facts.h"
#include "render/terminal_safe.h"
#include "render/text_blocks.h"

namespace gpucheck::render {
namespace {

// One table cell: no line breaks, no column separators.
std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n' || c == '\t') out += ' ';
    else out += c;
  }
  return out;
}

// Inline code that a backtick inside cannot end early.
std::string code(const std::string& s) {
  std::string fence = "`";
  while (s.find(fence) != std::string::npos) fence += '`';
  return fence + (s.empty() || s.front() == '`' || s.back() == '`' ? " " + s + " " : s) + fence;
}

void attention_block(const Finding& f, std::ostream& out) {
  std::string status = to_string(f.status);
  for (auto& c : status) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  out << fmt::format("**{}** {}: {}\n\n", status, code(f.id), f.title.empty() ? f.summary : f.title);
  if (!f.title.empty() && !f.summary.empty() && f.summary != f.title) out << f.summary << "\n\n";
  for (auto& e : f.evidence) {
    auto lines = split(e.value, '\n');
    if (lines.size() <= 1) out << fmt::format("- {}: {}\n", e.what, code(e.value));
    else {
      out << fmt::format("- {}:\n\n  ```\n", e.what);
      for (auto& l : lines) out << "  " << l << "\n";
      out << "  ```\n";
    }
  }
  for (auto& d : f.devices)
    if (d.status != Status::kPass) out << fmt::format("- device {}: {} {}\n", d.device, to_string(d.status), d.summary);
  if (!f.evidence.empty() || !f.devices.empty()) out << "\n";
  if (!f.fixes.empty()) {
    out << "Fix:\n\n";
    for (auto& fix : f.fixes) {
      out << fmt::format("{}. {}\n", fix.rank, fix.summary);
      if (!fix.commands.empty()) {
        out << "   ```sh\n";
        for (auto& c : fix.commands) out << "   " << c << "\n";
        out << "   ```\n";
      }
    }
    out << "\n";
  }
}

}  // namespace

void render_markdown(const report::Report& unsafe, std::ostream& out, const RenderOptions& o) {
  const report::Report r = terminal_safe_copy(unsafe);
  const model::Verdict v = model::verdict(r, o.program);
  out << fmt::format("### gpucheck {} on {}: {}\n\n", r.meta.command, r.meta.hostname, v.word);
  std::string command_line;
  for (std::size_t i = 0; i < r.meta.command_line.size(); ++i)
    command_line += (i ? " " : "") + (i == 0 ? std::string("gpucheck") : r.meta.command_line[i]);
  out << fmt::format("{} · gpucheck {} · {} · exit {}\n\n", code(command_line), r.meta.tool_version,
                     r.meta.started_at, v.exit_code);
  out << fmt::format("**{}**\n\n", v.line);
  if (!v.next.advice.empty()) {
    out << "Next step: " << v.next.advice << "\n\n";
    if (!v.next.command.empty()) out << "```sh\n" << v.next.command << "\n```\n\n";
  }

  auto facts = stack_facts(r);
  if (!facts.empty()) {
    out << "| stack | |\n|---|---|\n";
    for (auto& [name, value] : facts) out << fmt::format("| {} | {} |\n", cell(name), cell(value));
    out << "\n";
  }

  const auto attention = model::attention(r);
  if (!attention.empty()) out << "#### Needs attention\n\n";
  for (const auto* f : attention) attention_block(*f, out);

  if (r.meta.command == "compare") return text::markdown_compare(r, out);  // a table of benchmarks
  if (!r.findings().empty()) {
    out << "| status | check | result |\n|---|---|---|\n";
    for (const auto& s : r.sections)
      for (const auto& row : model::check_rows(s.findings)) {
        std::string ids;
        for (const auto* f : row.findings) ids += (ids.empty() ? "" : ", ") + code(f->id);
        out << fmt::format("| {} | {} | {} |\n", to_string(row.status), ids, cell(row.reason()));
      }
    out << "\n";
  }
}

}  // namespace gpucheck::render
