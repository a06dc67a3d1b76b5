#pragma once
// `gpucheck bench`: take this machine's context (inventory), run the benchmark suites, write one Google
// Benchmark JSON document with the context filled; report::bench_report says what each suite did.
#include <string>
#include <vector>

#include "model/report.h"
#include "runner/bench_suites.h"

namespace gpucheck::commands {

struct BenchRequest {
  runner::BenchOptions options;
  std::string out;                   // the document's path; "" = DIR/<key>-<UTC time>.json
  std::string dir = ".";             // where a document without --out goes (a --baseline-dir)
  bool no_python = false;            // no torch version in the context (faster; a different key)
  std::vector<std::string> pythons;  // the interpreter whose torch the context names (first one)
  std::string suites_file;           // "" = the installed data/bench/suites.json
};

/// The document is written atomically (secrets scrubbed); where it goes is checked before any suite runs.
/// InputError on bad options or a destination that takes no file.
model::Report bench(const BenchRequest& req, model::Report base);

}  // namespace gpucheck::commands
