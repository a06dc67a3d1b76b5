#pragma once
// What every probe executable uses: common argument parsing, timing, exception safety and the result
// channel. A probe main is a few lines:
//
//   int main(int argc, char** argv) {
//     return gpucheck::probe::run(argc, argv, "device.runtime", "CUDA runtime and driver",
//                                 [](const gpucheck::probe::Context& ctx, gpucheck::Finding& r) { ... });
//   }
//
// Protocol with the runner: `PROBE --result-fd N --level quick|standard|long [probe args]`. The probe
// writes exactly one JSON result object to fd N and exits 0 whatever the verdict (the verdict is in the
// JSON). Run by hand without --result-fd it prints a one-line verdict, or the JSON with --json.
#include <functional>
#include <string>
#include <vector>

#include "core/finding.h"

namespace gpucheck::probe {

struct Context {
  std::string level = "standard";  // quick | standard | long
  std::vector<std::string> args;   // arguments not consumed by the common parser
  std::string arg(const std::string& name, const std::string& fallback = "") const;  // --name VALUE
  bool flag(const std::string& name) const;                                          // --name
};

using Body = std::function<void(const Context&, Finding&)>;

/// Runs `body` with a Finding pre-filled with id/title; measures duration; turns an escaping exception into
/// status `error` with its message. Returns the process exit code (0 when the result was delivered).
int run(int argc, char** argv, const char* id, const char* title, const Body& body);

/// Marks the result as skipped with a reason (convenience for the common "cannot run here").
void skip(Finding& r, const std::string& reason);

}  // namespace gpucheck::probe
