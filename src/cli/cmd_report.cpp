// `gpucheck report FILE`: a saved report rendered again, in any format (text, markdown, junit, prom, html, json).
#include <sstream>

#include "cli/command.h"
#include "core/errors.h"
#include "commands/tool.h"

namespace gpucheck::cli {
namespace {

Runner setup_report(CLI::App& sub, GlobalOptions& g) {
  auto file = std::make_shared<std::string>();
  sub.add_option("FILE", *file, "A report written by gpucheck (reports/<host>-<time>.json, or any command's --json)")
      ->type_name("FILE")
      ->required();
  sub.footer(R"(Examples:
  gpucheck report reports/node7-20261201T101500Z.json                 the terminal summary again
  gpucheck report RUN.json --format markdown                          to paste into an issue
  gpucheck report RUN.json --format junit --out gpucheck.xml          CI test results
  gpucheck report RUN.json --format prom --out /var/lib/node_exporter/gpucheck.prom
  gpucheck report RUN.json --html --out node7.html                    a page to read or attach

Exits with the report's own exit code (0, 1 or 3), 2 when FILE is not a gpucheck report.)");
  return [file, &g] {
    report::Report rep = commands::saved_report(*file);
    // A finding's details are free-form JSON from another machine: a renderer that meets a field of another
    // type than gpucheck writes makes the file bad input (exit 2), found before anything is printed.
    try {
      std::ostringstream dry_run;
      render::render(rep, selected_format(g), dry_run, render_options(g, -1));
    } catch (const nlohmann::json::exception& e) {
      throw InputError(*file + ": a field has a type gpucheck does not write (" + e.what() + ")");
    }
    return emit_report(rep, g);
  };
}

Registration reg({"report", "Render a saved report as text, Markdown, JUnit XML, Prometheus metrics or HTML", 85, &setup_report});

}  // namespace
}  // namespace gpucheck::cli
