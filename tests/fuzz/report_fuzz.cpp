// Fuzz target: a gpucheck report read back (`gpucheck report FILE`, `gpucheck fleet DIR`): any JSON is a
// Report or an InputError with one line; a Report read serialises and its exit code is one of the contract's.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/text.h"
#include "fuzz_check.h"
#include "report/report.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto doc = nlohmann::json::parse(data, data + size, nullptr, false);
  if (doc.is_discarded()) return 0;
  try {
    auto r = gpucheck::report::report_from_json(doc);
    (void)gpucheck::json_text(gpucheck::report::to_json(r));
    int code = gpucheck::report::exit_code(r);
    if (code < 0 || code > 3) std::abort();
  } catch (const gpucheck::InputError& e) {
    fuzzcheck::one_line(e.what());
  }
  return 0;
}
