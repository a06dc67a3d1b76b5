#pragma once
// The whole command line of gpucheck as one call, so that main() and the parser's fuzz target share it.

namespace gpucheck::cli {

enum class Stage {
  parse,  // parse and validate the options only: 0 when a command was selected, else the usage exit code
  run,    // then run the selected command and return its exit code
};

/// Parses argv (argv[0] is the program) and, at Stage::run, runs the selected command. Never exits the
/// process: usage errors print one line and return kExitUsage.
int run_command_line(int argc, char** argv, Stage until = Stage::run);

}  // namespace gpucheck::cli
