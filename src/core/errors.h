#pragma once
#include <stdexcept>
#include <string>

namespace gpucheck {

/// Bad input from the user (missing file, truncated JSON, wrong value): the CLI prints the message on one
/// line and exits with kExitUsage. Library code throws it; only src/cli catches it.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Stable exit codes, documented in README and --help.
enum ExitCode : int {
  kExitOk = 0,        // no failure
  kExitFailed = 1,    // at least one check failed (or, with --strict, was skipped)
  kExitUsage = 2,     // usage or input error
  kExitNoVerdict = 3  // a probe errored (crash, timeout, bad output): no verdict
};

}  // namespace gpucheck
