// The summary to paste into an issue instead of collect_env: what was run, the stack, what needs
// attention with its evidence and fixes, every check in one table, then the environment in full
// (render/environment_paste.h: collect_env's facts plus toolkits, picks and loaded libraries) in a fenced
// block, folded under <details> except for `env`, whose answer it is. Nothing secret: the report's
// environment variables stay out (allow-listed as they are); the inventory's paths are in the block.
#include <string>

#include <fmt/format.h>

#include "core/text.h"
#include "model/verdict.h"
#include "render/environment_paste.h"
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

void attention_block(const Finding& f, std::ostream& out) {
  std::string status = to_string(f.status);
  for (auto& c : status) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  out << fmt::format("**{}** {}: {}\n\n", status, code(f.id), md(f.title.empty() ? f.summary : f.title));
  if (!f.title.empty() && !f.summary.empty() && f.summary != f.title) out << md(f.summary) << "\n\n";
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

// The environment block: open for `env`, folded for a command whose answer is a verdict.
void environment_block(const model::Report& r, std::ostream& out) {
  if (!r.inventory.is_object()) return;
  inventory::Inventory inv;
  try {
    inventory::from_json(r.inventory, inv);
  } catch (const std::exception&) {  // a saved report with an inventory of another schema: the table above
    return;
  }
  const bool env = std::holds_alternative<model::EnvDetails>(model::details_of(r));
  if (env) out << "#### Environment\n\n";
  else out << "<details><summary>Environment (collect_env's facts, toolkits, loaded libraries)</summary>\n\n";
  out << markdown::fence(environment_paste(inv), "text") << "\n";
  if (!env) out << "</details>\n\n";
}

}  // namespace

void render_markdown(const model::Report& unsafe, std::ostream& out, const RenderOptions& o) {
  const model::Report r = terminal_safe_copy(unsafe);
  const model::Verdict v = model::verdict(r, o.program);
  out << fmt::format("### gpucheck {} on {}: {}\n\n", md(r.meta.command), md(r.meta.hostname), v.word);
  std::string command_line;
  for (std::size_t i = 0; i < r.meta.command_line.size(); ++i)
    command_line += (i ? " " : "") + (i == 0 ? std::string("gpucheck") : r.meta.command_line[i]);
  out << fmt::format("{} · gpucheck {} · {} · exit {}\n\n", code(command_line), md(r.meta.tool_version),
                     md(r.meta.started_at), v.exit_code);
  out << fmt::format("**{}**\n\n", md(v.line));
  if (!v.next.advice.empty()) {
    out << "Next step: " << md(v.next.advice) << "\n\n";
    if (!v.next.command.empty()) out << markdown::fence({v.next.command}, "sh") << "\n";
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

  // A compare report is a table of benchmarks.
  if (std::holds_alternative<model::CompareDetails>(model::details_of(r))) return text::markdown_compare(r, out);
  // env describes: no table of pass/fail rows.
  if (std::holds_alternative<model::EnvDetails>(model::details_of(r))) return environment_block(r, out);
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
  environment_block(r, out);
}

}  // namespace gpucheck::render
