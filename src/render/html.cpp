// One self-contained page per Report: the verdict and what was (not) tested first, then the stack, what
// needs attention with its evidence and fixes, charts as inline SVG, and every check with its metrics.
// No script, no external file, no link that loads anything; every string from the report is escaped
// (html_escape), and the page is well-formed XML (XHTML served as HTML), so a parser can check it.
#include <string>

#include <fmt/format.h>

#include "core/text.h"
#include "model/finding_details.h"
#include "model/verdict.h"
#include "render/html_charts.h"
#include "render/html_escape.h"
#include "render/html_scope.h"
#include "render/html_style.h"
#include "render/render.h"
#include "render/stack_facts.h"
#include "render/svg_chart.h"

namespace gpucheck::render {
namespace {

using html::escape;

std::string pill(Status s) { return fmt::format("<span class=\"pill {0}\">{0}</span>", to_string(s)); }

std::string duration_text(double s) {
  if (!(s > 0)) return "";
  return s < 0.1 ? fmt::format("{:.0f} ms", 1000 * s) : fmt::format("{:.1f} s", s);
}

std::string metric_text(const Metric& m) {
  return escape(m.name) + " " + escape(svg::number_text(m.value)) + (m.unit.empty() ? "" : " " + escape(m.unit));
}

std::string metrics_text(const std::vector<Metric>& ms) {
  std::string out;
  for (auto& m : ms) out += (out.empty() ? "" : "<br/>") + metric_text(m);
  return out;
}

// A value on one line stays inline; a multi-line one (a log tail, a table) keeps its lines in a <pre>.
std::string value_html(const std::string& v) {
  if (v.find('\n') == std::string::npos) return "<code>" + escape(v) + "</code>";
  return "<pre class=\"plain\">" + escape(v) + "</pre>";
}

void evidence_html(const EvidenceList& ev, std::string& out) {
  if (ev.empty()) return;
  out += "<dl class=\"evidence\">\n";
  for (auto& e : ev)
    out += fmt::format("<dt>{}</dt><dd>{}{}</dd>\n", escape(e.what), value_html(e.value),
                       e.source.empty() ? "" : " <span class=\"source\">(" + escape(e.source) + ")</span>");
  out += "</dl>\n";
}

void devices_html(const std::vector<DeviceFinding>& devices, std::string& out) {
  if (devices.empty()) return;
  out += "<div class=\"scroll\"><table><thead><tr><th>device</th><th>status</th><th>result</th><th>metrics</th></tr></thead><tbody>\n";
  for (auto& d : devices)
    out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"metrics\">{}</td></tr>\n", escape(d.device),
                       pill(d.status), escape(d.summary), metrics_text(d.metrics));
  out += "</tbody></table></div>\n";
}

void fixes_html(const std::vector<Fix>& fixes, std::string& out) {
  if (fixes.empty()) return;
  out += "<h4>Fix</h4>\n<ol class=\"fixes\">\n";
  for (auto& f : fixes) {
    out += "<li><p>" + escape(f.summary) + (f.cost.empty() ? "" : " <span class=\"cost\">(" + escape(f.cost) + ")</span>") + "</p>";
    if (!f.commands.empty()) out += "<pre><code>" + escape(join(f.commands, "\n")) + "</code></pre>";
    out += "</li>\n";
  }
  out += "</ol>\n";
}

// References are shown as text, never as links: the page must not lead a click, or a prefetch, anywhere.
void references_html(const std::vector<std::string>& refs, std::string& out) {
  if (refs.empty()) return;
  out += "<p class=\"source\">Sources: ";
  for (std::size_t i = 0; i < refs.size(); ++i) out += (i ? "; " : "") + escape(refs[i]);
  out += "</p>\n";
}

// Everything a Finding says, for the "needs attention" list and each check's details.
void finding_body(const Finding& f, std::string& out, bool with_summary = true) {
  if (with_summary && !f.title.empty() && !f.summary.empty()) out += "<p>" + escape(f.summary) + "</p>\n";
  evidence_html(f.evidence, out);
  devices_html(f.devices, out);
  if (!f.explanation.empty()) out += "<p><strong>Why:</strong> " + escape(f.explanation) + "</p>\n";
  fixes_html(f.fixes, out);
  references_html(f.references, out);
  if (auto table = model::plain_table(f)) out += "<pre class=\"plain\">" + escape(*table) + "</pre>\n";
}

void banner(const model::Report& r, const model::Verdict& v, std::string& out) {
  const html::Scope scope = html::tested_scope(r, v);
  std::string command_line;
  for (std::size_t i = 0; i < r.meta.command_line.size(); ++i)  // never the install path (argv[0])
    command_line += (i ? " " : "") + (i == 0 ? std::string("gpucheck") : r.meta.command_line[i]);
  out += fmt::format("<header class=\"banner {}\" id=\"verdict\"><div class=\"banner-inner\">\n<div class=\"verdict\">{}</div>\n<div>\n",
                     scope.tone, escape(scope.verdict));
  out += fmt::format("<h1>gpucheck {} on {}</h1>\n", escape(r.meta.command), escape(r.meta.hostname));
  for (auto& line : scope.lines) out += "<p class=\"scope\">" + escape(line) + "</p>\n";
  out += "<p class=\"counts\">" + escape(v.line) + "</p>\n";
  if (!v.next.advice.empty()) {
    out += "<p class=\"next\"><strong>Next step:</strong> " + escape(v.next.advice) + "</p>\n";
    if (!v.next.command.empty()) out += "<pre class=\"next\"><code>" + escape(v.next.command) + "</code></pre>\n";
  }
  out += fmt::format("<p class=\"meta\"><code>{}</code> · exit {} · gpucheck {} · {}</p>\n", escape(command_line),
                     v.exit_code, escape(r.meta.tool_version), escape(r.meta.started_at));
  out += "</div></div></header>\n";
}

void stack_section(const model::Report& r, std::string& out) {
  auto facts = stack_facts(r);
  if (facts.empty()) return;
  out += "<section id=\"stack\"><h2>Stack</h2>\n<dl class=\"facts\">\n";
  for (auto& [name, value] : facts) out += fmt::format("<dt>{}</dt><dd>{}</dd>\n", escape(name), escape(value));
  out += "</dl></section>\n";
}

void attention_section(const model::Report& r, std::string& out) {
  std::string body;
  int n = 0;
  for (const auto* f : model::attention(r)) {
    ++n;
    body += fmt::format("<article class=\"finding {}\">\n<h3>{} {} <code>{}</code></h3>\n", to_string(f->status),
                        pill(f->status), escape(f->title.empty() ? f->summary : f->title), escape(f->id));
    finding_body(*f, body);
    body += "</article>\n";
  }
  if (n) out += fmt::format("<section id=\"attention\"><h2>Needs attention ({})</h2>\n{}</section>\n", n, body);
}

void charts_section(const model::Report& r, std::string& out) {
  auto charts = html::report_charts(r);
  if (charts.empty()) return;
  out += "<section id=\"charts\"><h2>Charts</h2>\n<div class=\"chart-grid\">\n";
  for (auto& c : charts)
    out += fmt::format("<figure id=\"{}\">\n{}<figcaption>{}</figcaption></figure>\n", c.id, c.svg, escape(c.caption));
  out += "</div></section>\n";
}

void checks_section(const model::Report& r, std::string& out) {
  if (r.findings().empty()) return;
  out += "<section id=\"checks\"><h2>Every check</h2>\n";
  for (auto& s : r.sections) {
    if (s.findings.empty()) continue;
    out += "<h3>" + escape(s.name) + "</h3>\n<div class=\"scroll\"><table class=\"checks\"><thead><tr><th>status</th>"
           "<th>check</th><th>result</th><th>metrics</th><th>time</th></tr></thead><tbody>\n";
    for (const auto& row : model::check_rows(s.findings)) {
      if (row.findings.size() > 1) {  // skips that share one reason: one row, the reason once
        std::string ids;
        for (const auto* f : row.findings) ids += (ids.empty() ? "" : ", ") + ("<code>" + escape(f->id) + "</code>");
        out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"metrics\"></td><td class=\"num\"></td></tr>\n",
                           pill(row.status), ids, escape(row.reason()));
        continue;
      }
      const Finding& f = *row.findings.front();
      std::string more;
      finding_body(f, more, false);  // the summary is the row's own cell
      out += fmt::format("<tr><td>{}</td><td><code>{}</code>{}</td><td>{}{}</td><td class=\"metrics\">{}</td><td class=\"num\">{}</td></tr>\n",
                         pill(f.status), escape(f.id), f.title.empty() ? "" : "<br/>" + escape(f.title), escape(f.summary),
                         more.empty() ? "" : "<details><summary>details</summary>\n" + more + "</details>",
                         metrics_text(f.metrics), duration_text(f.duration_s));
    }
    out += "</tbody></table></div>\n";
  }
  out += "</section>\n";
}

void notes_section(const model::Report& r, std::string& out) {
  if (r.notes.empty()) return;
  out += "<section id=\"notes\"><h2>Notes</h2><ul>\n";
  for (auto& n : r.notes) out += "<li>" + escape(n) + "</li>\n";
  out += "</ul></section>\n";
}

}  // namespace

void render_html(const model::Report& r, std::ostream& os, const RenderOptions& o) {
  const model::Verdict v = model::verdict(r, o.program);
  std::string out;
  out += "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
         // Nothing may load: no script, no connection, no image or font from elsewhere.
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\"/>\n";
  out += fmt::format("<title>{}: gpucheck {} on {}</title>\n", escape(v.word), escape(r.meta.command), escape(r.meta.hostname));
  out += "<style>" + std::string(html::stylesheet()) + "</style>\n</head>\n<body>\n";
  banner(r, v, out);
  // The body's sections, then a menu of only those present (a link to a missing section is a dead end).
  std::string body;
  std::string nav = "<a href=\"#verdict\">verdict</a>";
  auto add = [&](void (*part)(const model::Report&, std::string&), const char* id, const char* label) {
    std::string piece;
    part(r, piece);
    if (piece.empty()) return;
    body += piece;
    nav += fmt::format("<a href=\"#{}\">{}</a>", id, label);
  };
  add(stack_section, "stack", "stack");
  add(attention_section, "attention", "needs attention");
  add(charts_section, "charts", "charts");
  add(checks_section, "checks", "every check");
  add(notes_section, "notes", "notes");
  out += "<nav><div>" + nav + "</div></nav>\n<main>\n" + body;
  out += fmt::format("</main>\n<footer><p>gpucheck {} · report of {} · started {} · finished {}. This page is self-contained: "
                     "it loads nothing and runs no script.</p></footer>\n</body>\n</html>\n",
                     escape(r.meta.tool_version), escape(r.meta.hostname), escape(r.meta.started_at), escape(r.meta.finished_at));
  os << out;
}

}  // namespace gpucheck::render
