// Fuzz target: the log explainer (`gpucheck explain FILE`) with the shipped signatures on arbitrary bytes:
// fed whole and in pieces cut at an input-chosen size, the explanation is the same and serialises (invalid
// UTF-8 included), never a crash or an exception.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "checks/explain/explainer.h"
#include "core/text.h"

using namespace gpucheck::explain;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<Signature> signatures = load_signatures(GPUCHECK_SOURCE_DIR "/data/signatures");
  const FactCall no_facts = [](const std::string&, const std::vector<std::string>&) -> std::optional<std::string> {
    return std::nullopt;
  };
  std::string text(reinterpret_cast<const char*>(data), size);
  Explanation whole = explain_text(text, signatures, no_facts);
  std::istringstream in(text);
  Explanation streamed = explain_stream(in, "fuzz.log", signatures, no_facts);
  if (whole.causes.size() != streamed.causes.size()) std::abort();
  for (const auto& f : whole.causes) (void)gpucheck::json_text(nlohmann::json(f));
  return 0;
}
