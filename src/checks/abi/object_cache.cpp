#include "checks/abi/object_cache.h"

#include <climits>
#include <cstdlib>

namespace gpucheck::abi {

std::string real_path(const std::string& path) {
  char buf[PATH_MAX];
  if (::realpath(path.c_str(), buf)) return buf;
  return path;
}

const platform::ElfObject* ObjectCache::get(const std::string& path, std::string* error) {
  std::string key = real_path(path);
  auto it = objects_.find(key);
  if (it == objects_.end()) {
    Slot slot;
    try {
      slot.object = platform::ElfObject::open(key);
    } catch (const platform::ElfError& e) {
      // Report under the name the caller used, but cache by the real file.
      slot.error = e.what();
    }
    it = objects_.emplace(key, std::move(slot)).first;
  }
  if (!it->second.object && error) *error = it->second.error;
  return it->second.object.get();
}

}  // namespace gpucheck::abi
