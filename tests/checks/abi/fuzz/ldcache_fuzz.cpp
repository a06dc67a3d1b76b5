// Fuzz target: the ld.so.cache parser must turn any byte string into a cache or an InputError.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "platform/ld_cache.h"
#include "core/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    auto c = gpucheck::platform::LdCache::parse(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
    (void)c.lookup("libc.so.6");
  } catch (const gpucheck::InputError&) {
  }
  return 0;
}
