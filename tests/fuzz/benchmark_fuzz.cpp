// Fuzz target: a Google Benchmark JSON document (`gpucheck compare BASE NEW`, bench history): any JSON is a
// document or an InputError with one line, never another exception.
#include <cstddef>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "checks/regression/benchmark_document.h"
#include "core/errors.h"
#include "fuzz_check.h"

namespace {

// Samples and context, to compare the two readers.
std::string summary(const gpucheck::regression::BenchmarkDocument& d) {
  nlohmann::json j = {{"context", d.context}, {"benchmarks", nlohmann::json::array()}};
  for (const auto& b : d.benchmarks)
    j["benchmarks"].push_back({{"name", b.name}, {"times", b.times_ns}, {"error", b.error}, {"counters", b.counters}});
  return j.dump();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto doc = nlohmann::json::parse(data, data + size, nullptr, false);
  if (doc.is_discarded()) return 0;
  std::string whole = "refused", rows = "refused";
  try {
    auto d = gpucheck::regression::parse_benchmark_document(doc, "fuzz.json");
    for (const auto& b : d.benchmarks) (void)d.find(b.name);
    whole = summary(d);
  } catch (const gpucheck::InputError& e) {
    fuzzcheck::one_line(e.what());
  }
  // The file reader takes each row as the parser reads it: the same samples, or the same refusal.
  try {
    rows = summary(gpucheck::regression::load_benchmark_document(fuzzcheck::as_file(data, size)));
  } catch (const gpucheck::InputError& e) {
    fuzzcheck::one_line(e.what());
  }
  if (rows != whole) std::abort();
  return 0;
}
