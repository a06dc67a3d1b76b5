#pragma once
// Shell completion scripts generated from the CLI model (cli_model.h): subcommands, their options and
// the global ones, an option's fixed choices (--level quick|standard|long), file and directory names
// for FILE/PATH and DIR values, and probe ids (from `gpucheck list`) for --only/--skip.
#include <string>

#include "cli/cli_model.h"

namespace gpucheck::cli {

/// The script for `shell` ("bash", "zsh" or "fish"); the top-level model is `root`.
std::string completion_script(const CommandModel& root, const std::string& shell);

}  // namespace gpucheck::cli
