#pragma once
// Opened ELF objects shared across every target of one audit: a library needed by fifty extension
// modules is mapped, parsed and hashed once. Keyed by the real path (symlinks resolved).
#include <map>
#include <memory>
#include <string>

#include "platform/elf_object.h"

namespace gpucheck::abi {

class ObjectCache {
 public:
  /// The object at `path`, or nullptr with `*error` set when it cannot be opened or parsed.
  const platform::ElfObject* get(const std::string& path, std::string* error);
  std::size_t size() const { return objects_.size(); }

 private:
  struct Slot {
    std::unique_ptr<platform::ElfObject> object;
    std::string error;
  };
  std::map<std::string, Slot> objects_;
};

/// realpath(3) of `path`, or `path` unchanged when it cannot be resolved.
std::string real_path(const std::string& path);

}  // namespace gpucheck::abi
