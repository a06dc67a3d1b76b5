#pragma once
// Subcommands register themselves from their own file (src/cli/cmd_<name>.cpp), so adding a command
// touches no shared list:
//
//   static gpucheck::cli::Registration reg({"env", "Inventory of the GPU stack", 20, &setup_env});
//
// `setup` declares the subcommand's options on `sub` and returns the function that runs it.
#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "render/render.h"
#include "commands/inventory_source.h"
#include "model/report.h"

namespace gpucheck::cli {

/// Options every subcommand understands (declared on the top-level app, accepted after the subcommand).
struct GlobalOptions {
  bool json = false;          // --json: the same as --format json
  bool html = false;          // --html: the same as --format html
  std::string format = "text";  // text | json | markdown | junit | prom | html
  std::string out;            // write the document to this file (atomically) instead of stdout
  bool quiet = false;
  bool verbose = false;
  std::string color = "auto"; // auto | always | never
  std::vector<std::string> argv;  // the full command line, for report metadata
};

using Runner = std::function<int()>;

struct Command {
  std::string name;
  std::string description;
  int order;  // position in --help
  std::function<Runner(CLI::App& sub, GlobalOptions& global)> setup;
};

std::vector<Command>& commands();

struct Registration {
  explicit Registration(Command c) { commands().push_back(std::move(c)); }
};

/// True when output to `fd` should be coloured under the --color choice (auto: a TTY and NO_COLOR unset).
bool use_color(const GlobalOptions& g, int fd);

/// Declares the inventory-source options every command that reads an inventory takes, with the same names
/// and help: --from FILE, --root DIR and (with `python`) --python PATH, repeatable.
void add_inventory_source(CLI::App& sub, commands::InventorySource& source, bool python = true);

/// A Report stamped with this invocation: command, tool version, host, start time, command line and the
/// allow-listed environment.
model::Report new_report(const std::string& command, const GlobalOptions& g);

/// The format --json / --format selected.
render::Format selected_format(const GlobalOptions& g);

/// Renders `r` in the selected format to --out FILE (atomically) or else stdout, and returns the exit code
/// of the contract for it (report::exit_code). `tweak` adjusts the render options (e.g. summary_only).
int emit_report(model::Report& r, const GlobalOptions& g, const render::RenderOptions* tweak = nullptr);

/// Render options from the global flags, for output to `fd`.
render::RenderOptions render_options(const GlobalOptions& g, int fd);

}  // namespace gpucheck::cli
