// Fuzz target: the inventory document loader (`--from FILE` of abi, doctor, use-cuda, modulefiles): any
// bytes are a loaded inventory or an InputError with one line, never a crash or another exception.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "inventory/model.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto doc = nlohmann::json::parse(data, data + size, nullptr, false);
  if (doc.is_discarded()) return 0;
  try {
    auto inv = gpucheck::inventory::inventory_from_document(doc, "fuzz.json");
    (void)nlohmann::json(inv).dump();
  } catch (const gpucheck::InputError& e) {
    if (std::string(e.what()).find('\n') != std::string::npos) std::abort();  // one line, always
  }
  return 0;
}
