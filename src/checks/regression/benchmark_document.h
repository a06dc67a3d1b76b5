#pragma once
// A Google Benchmark JSON document (`--benchmark_format=json`, what `gpucheck bench` writes) read as the
// repetitions of each benchmark. Only what the gate needs; the document itself is never modified.
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpucheck::regression {

struct BenchmarkSamples {
  std::string name;                 // run_name: "BM_OffloadAdam/0/1/1048576/manual_time"
  std::vector<double> times_ns;     // real_time of each repetition (manual time where the benchmark sets it)
  std::string label;
  std::string error;                // error_message of a benchmark that skipped (SkipWithError)
  std::map<std::string, double> counters;  // user counters of the first repetition (ratio_to_triad, ...)
};

struct BenchmarkDocument {
  std::string name;                 // the file it came from, for messages
  nlohmann::json context;           // the document's "context" (gpucheck's part under "gpucheck")
  std::vector<BenchmarkSamples> benchmarks;  // in the document's order, one entry per run_name
  /// run_name -> position in `benchmarks`, filled by parse_benchmark_document; find() scans instead when it
  /// does not cover every entry (a document built by hand).
  std::unordered_map<std::string, std::size_t> index;

  const BenchmarkSamples* find(const std::string& name) const;
};

/// Reads the document; aggregate rows (mean, median, stddev, cv) are ignored, each iteration row is one
/// repetition. Throws InputError naming `name` when it is not a Google Benchmark JSON document.
BenchmarkDocument parse_benchmark_document(const nlohmann::json& doc, const std::string& name);
/// Reads and parses a file; InputError when unreadable, not JSON, or not such a document.
BenchmarkDocument load_benchmark_document(const std::string& path);

/// Nanoseconds in one `time_unit` ("ns", "us", "ms", "s"); 0 for anything else.
double nanoseconds_per(const std::string& time_unit);

}  // namespace gpucheck::regression
