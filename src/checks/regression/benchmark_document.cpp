#include "checks/regression/benchmark_document.h"

#include <cmath>
#include <set>

#include "core/errors.h"
#include "core/files.h"

namespace gpucheck::regression {

namespace {
// Fields of a Google Benchmark row that are not user counters.
const std::set<std::string>& standard_fields() {
  static const std::set<std::string> s{"name", "family_index", "per_family_instance_index", "run_name",
                                       "run_type", "repetitions", "repetition_index", "threads", "iterations",
                                       "real_time", "cpu_time", "time_unit", "aggregate_name", "aggregate_unit",
                                       "error_occurred", "error_message", "label", "big_o", "rms"};
  return s;
}
}  // namespace

double nanoseconds_per(const std::string& unit) {
  if (unit == "ns") return 1;
  if (unit == "us") return 1e3;
  if (unit == "ms") return 1e6;
  if (unit == "s") return 1e9;
  return 0;
}

const BenchmarkSamples* BenchmarkDocument::find(const std::string& n) const {
  // By name: comparing two documents of 100,000 benchmarks by scanning took 211 s (reliability-3 N4).
  if (index.size() == benchmarks.size()) {
    auto it = index.find(n);
    return it == index.end() ? nullptr : &benchmarks[it->second];
  }
  for (const auto& b : benchmarks)
    if (b.name == n) return &b;
  return nullptr;
}

BenchmarkDocument parse_benchmark_document(const nlohmann::json& doc, const std::string& name) {
  auto bad = [&](const std::string& why) { return InputError(name + ": not a Google Benchmark JSON document (" + why + ")"); };
  if (!doc.is_object()) throw bad("not a JSON object");
  if (!doc.contains("benchmarks") || !doc["benchmarks"].is_array()) throw bad("no \"benchmarks\" array");
  BenchmarkDocument d;
  d.name = name;
  d.context = doc.contains("context") && doc["context"].is_object() ? doc["context"] : nlohmann::json::object();
  std::unordered_map<std::string, std::size_t>& index = d.index;
  std::size_t row_number = 0;
  for (const auto& row : doc["benchmarks"]) {
    ++row_number;
    std::string where = "benchmarks[" + std::to_string(row_number - 1) + "]";
    if (!row.is_object()) throw bad(where + " is not an object");
    auto text = [&](const char* key) {
      return row.contains(key) && row[key].is_string() ? row[key].get<std::string>() : std::string();
    };
    if (text("run_type") == "aggregate") continue;
    std::string run_name = text("run_name");
    if (run_name.empty()) run_name = text("name");
    if (run_name.empty()) throw bad(where + " has no name");
    auto [it, added] = index.try_emplace(run_name, d.benchmarks.size());
    if (added) {
      d.benchmarks.push_back({});
      d.benchmarks.back().name = run_name;
      d.benchmarks.back().label = text("label");
    }
    BenchmarkSamples& s = d.benchmarks[it->second];
    if (row.value("error_occurred", false)) {
      s.error = text("error_message").empty() ? "the benchmark reported an error" : text("error_message");
      continue;
    }
    if (!row.contains("real_time") || !row["real_time"].is_number()) throw bad(where + " (" + run_name + ") has no real_time");
    double per = nanoseconds_per(text("time_unit").empty() ? "ns" : text("time_unit"));
    if (per == 0) throw bad(where + " (" + run_name + ") has an unknown time_unit '" + text("time_unit") + "'");
    double t = row["real_time"].get<double>() * per;
    if (!std::isfinite(t) || t < 0) throw bad(where + " (" + run_name + ") has a real_time that is not a finite time");
    s.times_ns.push_back(t);
    if (s.counters.empty())
      for (const auto& [k, v] : row.items())
        if (v.is_number() && !standard_fields().count(k)) s.counters[k] = v.get<double>();
  }
  return d;
}

BenchmarkDocument load_benchmark_document(const std::string& path) {
  return parse_benchmark_document(read_json_file(path), path);
}

}  // namespace gpucheck::regression
