// The summary to paste into an issue instead of collect_env: what was run, the stack, what needs
// attention with its evidence and fixes, then every check in one table. Nothing secret: the report's
// environment and inventory paths stay out except the few stack facts.
#include <string>

#include <fmt/format.h>

#include "core/text.h"
#include "render/markdown_escape.h"
#include "render/render.h"
#include "render/stack_facts.h"
#include "render/terminal_safe.h"
#include "render/text_blocks.h"

namespace gpucheck::render {
namespace {

// Every string from the report goes through render/markdown_escape.h: text, cells, code spans, fences.
using markdown::cell;
using markdown::code;
std::string md(const std::string& s) { return markdown::text(s); }

bool needs_attention(Status s) { return s == Status::kWarn || s == Status::kFail || s == Status::kError; }

void attention_block(const Finding& f, std::ostream& out) {
  std::string status = to_string(f.status);
  for (auto& c : status) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  out << fmt::format("**{}** {}: {}\n\n", status, code(f.id), md(f.title.empty() ? f.summary : f.title));
  if (!f.title.empty() && !f.summary.empty()) out << md(f.summary) << "\n\n";
  for (auto& e : f.evidence) {
    auto lines = split(e.value, '\n');
    if (lines.size() <= 1) out << fmt::format("- {}: {}\n", md(e.what), code(e.value));
    else out << fmt::format("- {}:\n\n", md(e.what)) << markdown::fence(lines, "", "  ");
  }
  for (auto& d : f.devices)
    if (d.status != Status::kPass)
      out << fmt::format("- device {}: {} {}\n", md(d.device), to_string(d.status), md(d.summary));
  if (!f.evidence.empty() || !f.devices.empty()) out << "\n";
  if (!f.fixes.empty()) {
    out << "Fix:\n\n";
    for (auto& fix : f.fixes) {
      out << fmt::format("{}. {}\n", fix.rank, md(fix.summary));
      if (!fix.commands.empty()) out << markdown::fence(fix.commands, "sh", "   ");
    }
    out << "\n";
  }
}

}  // namespace

void render_markdown(const report::Report& unsafe, std::ostream& out, const RenderOptions&) {
  const report::Report r = terminal_safe_copy(unsafe);
  if (r.meta.command == "compare") return text::markdown_compare(r, out);  // a table of benchmarks
  const report::Summary s = report::summarize(r);
  out << fmt::format("### gpucheck {} on {}: {}\n\n", md(r.meta.command), md(r.meta.hostname), s.verdict);
  std::string command_line;
  for (std::size_t i = 0; i < r.meta.command_line.size(); ++i)
    command_line += (i ? " " : "") + (i == 0 ? std::string("gpucheck") : r.meta.command_line[i]);
  out << fmt::format("{} · gpucheck {} · {} · exit {}\n\n", code(command_line), md(r.meta.tool_version),
                     md(r.meta.started_at), s.exit_code);

  auto facts = stack_facts(r);
  if (!facts.empty()) {
    out << "| stack | |\n|---|---|\n";
    for (auto& [name, value] : facts) out << fmt::format("| {} | {} |\n", cell(name), cell(value));
    out << "\n";
  }

  bool any = false;
  for (const auto* f : r.findings())
    if (needs_attention(f->status)) {
      if (!any) out << "#### Needs attention\n\n";
      any = true;
      attention_block(*f, out);
    }

  if (!r.findings().empty()) {
    out << "| status | check | result |\n|---|---|---|\n";
    for (const auto* f : r.findings())
      out << fmt::format("| {} | {} | {} |\n", to_string(f->status), code(f->id), cell(f->summary));
    out << "\n";
  }
  out << fmt::format("{} pass, {} warn, {} skip, {} fail, {} error\n", s.counts.at("pass"), s.counts.at("warn"),
                     s.counts.at("skip"), s.counts.at("fail"), s.counts.at("error"));
}

}  // namespace gpucheck::render
