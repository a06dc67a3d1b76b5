#include "model/bench_details.h"

#include "model/json_fields.h"

namespace gpucheck::model {

nlohmann::json to_json(const BenchDetails& d) {
  nlohmann::json skipped = nlohmann::json::array();
  for (const auto& s : d.skipped) skipped.push_back({{"suite", s.suite}, {"name", s.name}, {"reason", s.reason}});
  nlohmann::json j{{"document", d.document}, {"key", d.key}, {"context", d.context}, {"skipped", skipped}};
  if (d.benchmarks) j["benchmarks"] = *d.benchmarks;
  return j;
}

BenchDetails bench_details(const model::Report& r) {
  BenchDetails d;
  d.document = text_at(r.details, "document");
  d.key = text_at(r.details, "key");
  d.context = member(r.details, "context");
  if (member(r.details, "benchmarks").is_number_integer()) d.benchmarks = count_at(r.details, "benchmarks");
  for (const auto& s : member(r.details, "skipped"))
    d.skipped.push_back({text_at(s, "suite"), text_at(s, "name"), text_at(s, "reason")});
  return d;
}

}  // namespace gpucheck::model
