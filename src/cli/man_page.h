#pragma once
// gpucheck(1) in roff, generated from the CLI model (cli_model.h): every command with its description,
// options and --help footer (examples, exit codes), so the page says what --help says.
#include <string>

#include "cli/cli_model.h"

namespace gpucheck::cli {

/// The man page of `root` (the top-level model), for `man -l` and share/man/man1/gpucheck.1.
std::string man_page(const CommandModel& root, const std::string& version);

}  // namespace gpucheck::cli
