#pragma once
// dlopen/dlsym in one place: the GPU libraries gpucheck must not link at build time (libcudart,
// libcublasLt, libnvidia-ml) are loaded at run time, so a missing or foreign library is a reason in the
// report, never a failed start. Every loader binds its functions through bind_symbol.
#include <string>

namespace gpucheck {

/// dlopen(name, RTLD_NOW | RTLD_LOCAL): the handle, or nullptr with `error` set to dlerror's text
/// ("libnvidia-ml.so.1: cannot open shared object file: ...").
void* open_library(const std::string& name, std::string& error);

/// The file a handle was loaded from (the loader's link map), or `fallback` when it cannot say.
std::string loaded_path(void* handle, const std::string& fallback);

/// The address of `name` in `handle`, or nullptr when the library lacks it.
void* find_symbol(void* handle, const char* name);

/// fn = the symbol `name` of `handle` as the function-pointer type of fn; false when the library lacks it
/// (fn is then null). The signature is the caller's promise: declare it as the library's header does.
template <typename Fn>
bool bind_symbol(void* handle, const char* name, Fn& fn) {
  fn = reinterpret_cast<Fn>(find_symbol(handle, name));
  return fn != nullptr;
}

}  // namespace gpucheck
