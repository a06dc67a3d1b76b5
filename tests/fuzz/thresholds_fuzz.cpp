// Fuzz target: the thresholds config of `gpucheck run --thresholds FILE`: any JSON is a config or an
// InputError of one line (a key is shown quoted, so a newline inside one cannot break the line).
#include <cstddef>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "checks/acceptance/thresholds.h"
#include "core/errors.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto doc = nlohmann::json::parse(data, data + size, nullptr, false);
  if (doc.is_discarded()) return 0;
  try {
    auto c = gpucheck::acceptance::parse_threshold_config(doc, "fuzz.json");
    (void)c.to_json().dump();
    (void)c.share_for("tflops_fp16");
  } catch (const gpucheck::InputError& e) {
    fuzzcheck::one_line(e.what());
  }
  return 0;
}
