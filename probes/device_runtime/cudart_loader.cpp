#include "cudart_loader.h"

#include <dlfcn.h>

#include <cstdlib>

#include "core/dynamic_library.h"

namespace gpucheck::probe {

namespace {
std::vector<std::string> candidates() {
  std::vector<std::string> c;
  if (const char* p = std::getenv("GPUCHECK_CUDART"); p && *p) c.push_back(p);
  for (const char* soname : {"libcudart.so", "libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0"})
    c.push_back(soname);
  std::vector<std::string> roots;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* v = std::getenv(var); v && *v) roots.push_back(v);
  roots.push_back("/usr/local/cuda");
  for (auto& r : roots)
    for (const char* sub : {"/lib64/libcudart.so", "/lib/libcudart.so", "/targets/x86_64-linux/lib/libcudart.so"})
      c.push_back(r + sub);
  return c;
}
}  // namespace

std::string Cudart::describe(int code) const {
  std::string name = error_name ? error_name(code) : "cudaError";
  std::string text = error_string ? error_string(code) : "";
  return name + " (" + std::to_string(code) + ")" + (text.empty() ? "" : ": " + text);
}

bool load_cudart(Cudart& out) {
  for (auto& candidate : candidates()) {
    std::string error;
    void* h = open_library(candidate, error);
    if (!h) {
      out.tried.push_back(candidate + ": " + error);
      continue;
    }
    bool ok = bind_symbol(h, "cudaRuntimeGetVersion", out.runtime_version) &&
              bind_symbol(h, "cudaDriverGetVersion", out.driver_version) &&
              bind_symbol(h, "cudaGetDeviceCount", out.device_count) &&
              bind_symbol(h, "cudaDeviceGetAttribute", out.device_attribute) &&
              bind_symbol(h, "cudaSetDevice", out.set_device) && bind_symbol(h, "cudaMalloc", out.malloc) &&
              bind_symbol(h, "cudaFree", out.free) && bind_symbol(h, "cudaMemcpy", out.memcpy) &&
              bind_symbol(h, "cudaMemGetInfo", out.mem_get_info) && bind_symbol(h, "cudaGetErrorName", out.error_name) &&
              bind_symbol(h, "cudaGetErrorString", out.error_string);
    if (!ok) {
      out.tried.push_back(candidate + ": missing CUDA runtime symbols");
      dlclose(h);
      continue;
    }
    out.handle = h;
    out.path = loaded_path(h, candidate);
    return true;
  }
  return false;
}

}  // namespace gpucheck::probe
