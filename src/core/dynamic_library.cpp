#include "core/dynamic_library.h"

#include <dlfcn.h>
#include <link.h>

namespace gpucheck {

void* open_library(const std::string& name, std::string& error) {
  void* h = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* e = dlerror();
    error = e ? e : name + ": not loadable";
  }
  return h;
}

std::string loaded_path(void* handle, const std::string& fallback) {
  link_map* lm = nullptr;
  return handle && dlinfo(handle, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name && *lm->l_name ? lm->l_name
                                                                                                  : fallback;
}

void* find_symbol(void* handle, const char* name) { return handle ? dlsym(handle, name) : nullptr; }

}  // namespace gpucheck
