#include "checks/regression/benchmark_document.h"

#include <cmath>
#include <set>

#include "core/errors.h"
#include "core/files.h"
#include "core/json_input.h"

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

namespace {

InputError not_a_document(const std::string& name, const std::string& why) {
  return InputError(name + ": not a Google Benchmark JSON document (" + why + ")");
}

// benchmarks[row_index] into `d`: its time appended to its run_name's samples; aggregate rows are skipped.
void add_row(BenchmarkDocument& d, const nlohmann::json& row, std::size_t row_index) {
  auto bad = [&](const std::string& why) { return not_a_document(d.name, why); };
  std::string where = "benchmarks[" + std::to_string(row_index) + "]";
  if (!row.is_object()) throw bad(where + " is not an object");
  auto text = [&](const char* key) {
    return row.contains(key) && row[key].is_string() ? row[key].get<std::string>() : std::string();
  };
  if (text("run_type") == "aggregate") return;
  std::string run_name = text("run_name");
  if (run_name.empty()) run_name = text("name");
  if (run_name.empty()) throw bad(where + " has no name");
  auto [it, added] = d.index.try_emplace(run_name, d.benchmarks.size());
  if (added) {
    d.benchmarks.push_back({});
    d.benchmarks.back().name = run_name;
    d.benchmarks.back().label = text("label");
  }
  BenchmarkSamples& s = d.benchmarks[it->second];
  // Google Benchmark writes a boolean; anything else there is not its document (json's value() would throw
  // a type_error past the caller's InputError: found by fuzz_benchmark).
  if (row.contains("error_occurred") && !row["error_occurred"].is_boolean())
    throw bad(where + " (" + run_name + ") has an error_occurred that is not true or false");
  if (row.contains("error_occurred") && row["error_occurred"].get<bool>()) {
    s.error = text("error_message").empty() ? "the benchmark reported an error" : text("error_message");
    return;
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

}  // namespace

BenchmarkDocument parse_benchmark_document(const nlohmann::json& doc, const std::string& name) {
  if (!doc.is_object()) throw not_a_document(name, "not a JSON object");
  if (!doc.contains("benchmarks") || !doc["benchmarks"].is_array()) throw not_a_document(name, "no \"benchmarks\" array");
  BenchmarkDocument d;
  d.name = name;
  d.context = doc.contains("context") && doc["context"].is_object() ? doc["context"] : nlohmann::json::object();
  std::size_t row_index = 0;
  for (const auto& row : doc["benchmarks"]) add_row(d, row, row_index++);
  return d;
}

BenchmarkDocument load_benchmark_document(const std::string& path) {
  // Each row is read as soon as the parser has it, and its tree dropped: a document of 900,000 rows never
  // exists as a whole JSON tree (about 6 times the file), only as the samples made from it.
  BenchmarkDocument d;
  d.name = path;
  std::size_t row_index = 0;
  bool in_benchmarks = false;
  std::string error;  // the first row that is bad input; the parse goes on, the row is kept and refused below
  auto read_as_parsed = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    if (depth == 1 && event == Event::key) {
      in_benchmarks = parsed == "benchmarks";
      if (in_benchmarks) {  // given twice: the tree keeps the last array, and so does what was read
        d.benchmarks.clear();
        d.index.clear();
        row_index = 0;
        error.clear();
      }
    }
    if (!in_benchmarks || depth != 2 || !error.empty()) return true;
    if (event != Event::object_end && event != Event::value && event != Event::array_end) return true;
    try {
      add_row(d, parsed, row_index++);
      return false;  // read: not kept in the tree
    } catch (const InputError& e) {
      error = e.what();
      return true;
    }
  };
  nlohmann::json doc;
  {
    const std::string text = read_file(path);
    const bool too_deep = json_too_deep(text);
    if (!too_deep) doc = nlohmann::json::parse(text, read_as_parsed, /*allow_exceptions=*/false);
    if (too_deep || doc.is_discarded()) (void)parse_json_input(text, path);  // throws, saying why
  }
  if (!doc.is_object()) throw not_a_document(path, "not a JSON object");
  if (!doc.contains("benchmarks") || !doc["benchmarks"].is_array()) throw not_a_document(path, "no \"benchmarks\" array");
  if (!error.empty()) throw InputError(error);
  d.context = doc.contains("context") && doc["context"].is_object() ? std::move(doc["context"]) : nlohmann::json::object();
  return d;
}

}  // namespace gpucheck::regression
