// `gpucheck report FILE`: a saved report rendered again, in any format (text, markdown, junit, prom, html, json).
#include <ostream>

#include "cli/command.h"
#include "core/errors.h"
#include "commands/tool.h"
#include "inventory/model.h"

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
    model::Report rep = commands::saved_report(*file);
    // Every format judges the same inventory: a mistyped field is bad input naming the field (exit 2) for
    // all of them, not only for the text view that reads it whole (reliability-3, item 12).
    if (!rep.inventory.is_null()) {
      try {
        inventory::inventory_from_document(rep.inventory, *file);
      } catch (const InputError& e) {
        throw InputError(*file + ": " + e.what());
      }
    }
    // A finding's details are free-form JSON from another machine: a renderer that meets a field of another
    // type than gpucheck writes makes the file bad input (exit 2), found before anything is printed: on
    // stdout by a first rendering into nothing (no copy of the output is kept); with --out, the file
    // appears only once the rendering has ended, so that rendering is the check.
    auto refused = [&](const nlohmann::json::exception& e) {
      return InputError(*file + ": a field has a type gpucheck does not write (" + e.what() + ")");
    };
    try {
      if (g.out.empty()) {
        std::ostream discard(nullptr);
        render::render(rep, selected_format(g), discard, render_options(g, -1));
      }
      return emit_report(rep, g);
    } catch (const nlohmann::json::exception& e) {
      throw refused(e);
    }
  };
}

Registration report_registration({"report", "Render a saved report as text, Markdown, JUnit XML, Prometheus metrics or HTML", 85, &setup_report});

}  // namespace
}  // namespace gpucheck::cli
