// Fuzz target: a pasted environment report (explain, doctor --from-text): collect_env and every other paste
// format (xformers.info, bitsandbytes, detectron2, nvidia-smi, pip/conda lists); any text is an inventory
// or nullopt; the inventory serialises.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/text.h"
#include "inventory/collect_env_text.h"
#include "inventory/pasted_report.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)gpucheck::inventory::looks_like_collect_env(text);
  if (auto inv = gpucheck::inventory::inventory_from_collect_env(text, "fuzz.txt"))
    (void)gpucheck::json_text(nlohmann::json(*inv));
  (void)gpucheck::inventory::looks_like_environment_report(text);
  if (auto pasted = gpucheck::inventory::read_pasted_environment(text, "fuzz.txt", ""))
    (void)gpucheck::json_text(nlohmann::json(pasted->inventory));
  return 0;
}
