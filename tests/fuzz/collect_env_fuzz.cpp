// Fuzz target: a pasted `python -m torch.utils.collect_env` report (explain, doctor --from): any text is an
// inventory or nullopt; the inventory serialises.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/text.h"
#include "inventory/collect_env_text.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)gpucheck::inventory::looks_like_collect_env(text);
  if (auto inv = gpucheck::inventory::inventory_from_collect_env(text, "fuzz.txt"))
    (void)gpucheck::json_text(nlohmann::json(*inv));
  return 0;
}
