// Fuzz target: a Google Benchmark JSON document (`gpucheck compare BASE NEW`, bench history): any JSON is a
// document or an InputError with one line, never another exception.
#include <cstddef>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "checks/regression/benchmark_document.h"
#include "core/errors.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto doc = nlohmann::json::parse(data, data + size, nullptr, false);
  if (doc.is_discarded()) return 0;
  try {
    auto d = gpucheck::regression::parse_benchmark_document(doc, "fuzz.json");
    for (const auto& b : d.benchmarks) (void)d.find(b.name);
  } catch (const gpucheck::InputError& e) {
    fuzzcheck::one_line(e.what());
  }
  return 0;
}
