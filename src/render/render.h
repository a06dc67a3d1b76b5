#pragma once
// Every way a Report is shown. One function per format, all with the same signature; a new format (HTML,
// JUnit, Prometheus, Markdown) is one more file in this folder and one more Format value.
#include <ostream>
#include <string>

#include "model/report.h"

namespace gpucheck::render {

enum class Format { kText, kJson, kMarkdown, kJunit, kPrometheus, kHtml };

/// "text", "json", "markdown", "junit", "prom" or "html"; nullopt for anything else.
std::optional<Format> parse_format(const std::string& name);

struct RenderOptions {
  bool color = false;    // ANSI colour (the caller decides from --color and isatty)
  bool verbose = false;  // every evidence line, child output tails
  bool quiet = false;    // only what needs attention and the verdict
  int width = 80;        // terminal columns; text wraps here
  /// `run` on a terminal has already shown each probe as it finished: the text ends with the verdict.
  bool summary_only = false;
  std::string program = "gpucheck";  // how this gpucheck was invoked (argv[0]): the Next step's commands use it
  std::string report_path;           // `run`: the report file written, shown before the verdict
};

/// The terminal rendering: what the command found, findings with evidence and numbered fixes.
void render_text(const model::Report& r, std::ostream& out, const RenderOptions& o);
/// The versioned JSON document (reports/schema/report.schema.json), indented, with a final newline.
void render_json(const model::Report& r, std::ostream& out, const RenderOptions& o);

/// The summary to paste into an issue: stack facts, what needs attention with fixes, every check.
void render_markdown(const model::Report& r, std::ostream& out, const RenderOptions& o);
/// JUnit XML (Ant format): a testsuite per section, a testcase per finding and per device.
void render_junit(const model::Report& r, std::ostream& out, const RenderOptions& o);
/// Prometheus text exposition (node_exporter textfile collector).
void render_prometheus(const model::Report& r, std::ostream& out, const RenderOptions& o);

/// One self-contained HTML page (html.cpp): verdict and what was tested, stack, fixes, SVG charts, every check.
void render_html(const model::Report& r, std::ostream& out, const RenderOptions& o);

void render(const model::Report& r, Format format, std::ostream& out, const RenderOptions& o);

/// Columns of the terminal on `fd` (TIOCGWINSZ) when it is one, else $COLUMNS when it is a number from 1
/// to 1000, else 80; never below 40.
int terminal_width(int fd);

}  // namespace gpucheck::render
