#include "cudart_loader.h"

#include <dlfcn.h>
#include <link.h>

#include <cstdlib>

namespace gpucheck::probe {

namespace {
template <typename F>
bool bind(void* h, const char* name, F& fn) {
  fn = reinterpret_cast<F>(dlsym(h, name));
  return fn != nullptr;
}

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
    void* h = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      const char* e = dlerror();
      out.tried.push_back(candidate + ": " + (e ? e : "not loadable"));
      continue;
    }
    bool ok = bind(h, "cudaRuntimeGetVersion", out.runtime_version) &&
              bind(h, "cudaDriverGetVersion", out.driver_version) &&
              bind(h, "cudaGetDeviceCount", out.device_count) &&
              bind(h, "cudaDeviceGetAttribute", out.device_attribute) &&
              bind(h, "cudaSetDevice", out.set_device) && bind(h, "cudaMalloc", out.malloc) &&
              bind(h, "cudaFree", out.free) && bind(h, "cudaMemcpy", out.memcpy) &&
              bind(h, "cudaMemGetInfo", out.mem_get_info) && bind(h, "cudaGetErrorName", out.error_name) &&
              bind(h, "cudaGetErrorString", out.error_string);
    if (!ok) {
      out.tried.push_back(candidate + ": missing CUDA runtime symbols");
      dlclose(h);
      continue;
    }
    out.handle = h;
    link_map* lm = nullptr;
    out.path = dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name ? lm->l_name : candidate;
    return true;
  }
  return false;
}

}  // namespace gpucheck::probe
