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

namespace gpucheck::cli {

/// Options every subcommand understands (declared on the top-level app, accepted after the subcommand).
struct GlobalOptions {
  bool json = false;          // machine-readable output on stdout
  std::string out;            // write the main document to this file (atomically)
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

/// Writes the command's main document: to --out (atomically) when given, else to stdout.
void emit_document(const GlobalOptions& g, const std::string& text);

}  // namespace gpucheck::cli
