#include "inventory/loader_cache.h"

#include "core/errors.h"

namespace gpucheck::inventory {

LoaderCache read_loader_cache(const platform::RootFs& fs) {
  const std::string guest = "/etc/ld.so.cache";
  std::string real = fs.resolve(guest);  // a symlink in an image stays inside the image
  if (real.empty()) return {platform::LdCache::empty(fs.host(guest) + " (absent)"), ""};
  try {
    return {platform::LdCache::parse(fs.read(real, 64u << 20), fs.host(real)), ""};
  } catch (const InputError& e) {
    return {platform::LdCache::empty(fs.host(real)), std::string("ld.so.cache unreadable: ") + e.what()};
  }
}

}  // namespace gpucheck::inventory
