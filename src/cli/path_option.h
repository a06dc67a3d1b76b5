#pragma once
// One validated path type for the command line: every option or operand whose value names a file or a
// directory carries one of the type names below, and validate_path_options() gives each the same check,
// so an empty value (`--dir "$UNSET"`) is a one-line usage error (exit 2) everywhere, never "the current
// directory" or "/".
#include <CLI/CLI.hpp>

namespace gpucheck::cli {

/// The type names that mark a path-valued option: FILE, DIR, PATH, REPORT, FILE|DIR, LOG, PROGRAM.
bool is_path_type(const std::string& type_name);

/// Adds the non-empty path check to every option of `app` and of its subcommands, at any depth, whose type
/// name is a path type.
void validate_path_options(CLI::App& app);

/// A program gpucheck will run (--cuobjdump): an executable regular file, not /dev/zero or a directory.
CLI::Validator executable_file();

}  // namespace gpucheck::cli
