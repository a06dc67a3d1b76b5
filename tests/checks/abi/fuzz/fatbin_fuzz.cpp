// Fuzz target: the fatbin parser must reject any byte string with FatbinError, never crash or read out
// of bounds (built with -fsanitize=fuzzer,address under clang; replayed with mutations under any compiler).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "checks/abi/fatbin.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    auto entries = gpucheck::abi::parse_fatbin(bytes);
    for (const auto& e : entries) (void)e.target();
  } catch (const gpucheck::abi::FatbinError&) {
  }
  std::size_t containers = 0;
  (void)gpucheck::abi::scan_embedded_fatbins(bytes, &containers);
  return 0;
}
