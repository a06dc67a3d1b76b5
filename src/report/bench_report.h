#pragma once
// `gpucheck bench` as one call: take this machine's context (inventory), run the benchmark suites, write
// one Google Benchmark JSON document with the context filled, and report what each suite did.
#include <string>
#include <vector>

#include "model/report.h"
#include "runner/bench_suites.h"

namespace gpucheck::report {

struct BenchRequest {
  runner::BenchOptions options;
  std::string out;                   // the document's path; "" = DIR/<key>-<UTC time>.json
  std::string dir = ".";             // where a document without --out goes (a --baseline-dir)
  bool no_python = false;            // no torch version in the context (faster; a different key)
  std::vector<std::string> pythons;  // the interpreter whose torch the context names (first one)
  std::string suites_file;           // "" = the installed data/bench/suites.json
};

/// Fills `rep`: section "suites", one Finding per suite (id bench.suite.<name>: pass when it ran, with
/// its benchmarks' skip reasons as evidence; skip when not built, no benchmark matched, or every
/// benchmark skipped; error when it crashed, timed out or wrote no JSON), details {document, key,
/// context, benchmarks, skipped}. The document is written atomically. InputError on bad options.
Report bench_report(const BenchRequest& req, Report rep);

/// The tool's build as the context names it: "cuda 12.4 archs 80;90 nccl torch" or "no cuda".
std::string tool_build_description();

}  // namespace gpucheck::report
