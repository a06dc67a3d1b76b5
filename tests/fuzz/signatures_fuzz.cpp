// Fuzz target: a signature file (`explain --signatures DIR`): any JSON is signatures or an InputError with
// one line naming the file, never another exception (issue 15 item 17: a mistyped field gave exit 3).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "checks/explain/explainer.h"
#include "core/errors.h"
#include "fuzz_check.h"

using namespace gpucheck::explain;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto doc = nlohmann::json::parse(data, data + size, nullptr, false);
  if (doc.is_discarded()) return 0;
  try {
    auto signatures = parse_signatures(doc, "fuzz.json");
    const FactCall no_facts = [](const std::string&, const std::vector<std::string>&) -> std::optional<std::string> {
      return std::nullopt;
    };
    // The loaded signatures must work on a log: one that names CUDA, NCCL and pip.
    (void)explain_text("RuntimeError: CUDA error: no kernel image is available\nNCCL WARN pip install torch\n",
                       signatures, no_facts);
  } catch (const gpucheck::InputError& e) {
    fuzzcheck::one_line(e.what());
  }
  return 0;
}
