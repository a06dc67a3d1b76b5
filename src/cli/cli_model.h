#pragma once
// The command line as data, read from the CLI11 definitions themselves (the App every subcommand
// declared its options on), so shell completion and the man page can never list an option that does not
// exist or miss one that does.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace gpucheck::cli {

struct OptionModel {
  std::vector<std::string> names;  // "--level", "-q"; empty for a positional
  std::string positional;          // the positional's name ("targets"); "" for an option
  std::string value;               // what it takes: "FILE", "DIR", "ID,...", "TEXT"; "" for a flag
  std::vector<std::string> choices;  // an IsMember check's values: quick, standard, long
  std::string help;
};

struct CommandModel {
  std::string name;         // "run"; "gpucheck" for the top level
  std::string description;
  std::string footer;       // the --help text after the options (examples, exit codes)
  std::vector<OptionModel> options;      // without --help
  std::vector<CommandModel> subcommands;  // in --help order
};

/// The model of `app` and its subcommands, recursively.
CommandModel model_of(const CLI::App& app);

/// The top-level App `sub` belongs to.
const CLI::App& root_of(const CLI::App& sub);

}  // namespace gpucheck::cli
