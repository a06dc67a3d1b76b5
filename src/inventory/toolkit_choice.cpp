#include "inventory/toolkit_choice.h"

#include <algorithm>

#include "core/text.h"
#include "platform/environment.h"

namespace gpucheck::inventory {

namespace {

ToolkitChoice make(const std::string& consumer, const platform::RootFs& fs, const std::vector<Toolkit>& toolkits,
                   const std::string& root, const std::string& reason) {
  ToolkitChoice c;
  c.consumer = consumer;
  c.reason = reason;
  std::string real = fs.resolve(root);
  c.root = real.empty() ? root : real;
  for (const auto& tk : toolkits)
    if (tk.root == c.root) c.version = tk.version;
  if (real.empty()) c.reason += " (does not exist)";
  return c;
}

ToolkitChoice none(const std::string& consumer, const std::string& reason) {
  ToolkitChoice c;
  c.consumer = consumer;
  c.reason = reason;
  return c;
}

std::string toolkit_of_nvcc(const platform::RootFs& fs, const std::string& nvcc) {
  return parent_dir(parent_dir(fs.resolve(nvcc)));
}

// "12.10" sorts above "12.9": compare dotted numbers numerically.
bool version_less(const std::string& a, const std::string& b) {
  auto pa = split(a, '.'), pb = split(b, '.');
  for (std::size_t i = 0; i < std::max(pa.size(), pb.size()); ++i) {
    long x = i < pa.size() ? std::strtol(pa[i].c_str(), nullptr, 10) : 0;
    long y = i < pb.size() ? std::strtol(pb[i].c_str(), nullptr, 10) : 0;
    if (x != y) return x < y;
  }
  return false;
}

ToolkitChoice cmake_choice(const platform::RootFs& fs, const EnvMap& env, const std::vector<Toolkit>& toolkits) {
  const std::string c = "cmake";
  if (auto v = platform::env_value(env, "CUDACXX"); !v.empty()) return make(c, fs, toolkits, toolkit_of_nvcc(fs, v), "CUDACXX=" + v);
  if (auto v = platform::env_value(env, "CUDAToolkit_ROOT"); !v.empty()) {
    // The root must hold bin/nvcc or a version file; otherwise FindCUDAToolkit moves on.
    for (const char* m : {"bin/nvcc", "version.txt", "version.json"})
      if (fs.exists(path_join(v, m))) return make(c, fs, toolkits, v, "CUDAToolkit_ROOT=" + v);
  }
  if (auto v = platform::env_value(env, "CUDA_PATH"); !v.empty() && fs.is_executable(path_join(v, "bin/nvcc")))
    return make(c, fs, toolkits, v, "CUDA_PATH=" + v);
  if (auto nvcc = fs.which("nvcc", platform::env_value(env, "PATH")); !nvcc.empty())
    return make(c, fs, toolkits, toolkit_of_nvcc(fs, nvcc), "nvcc on PATH: " + nvcc);
  if (fs.exists("/usr/local/cuda")) return make(c, fs, toolkits, "/usr/local/cuda", "/usr/local/cuda exists");
  std::vector<std::string> versioned;
  for (const auto& p : fs.glob_prefix("/usr/local", "cuda-"))
    if (fs.is_dir(p)) versioned.push_back(p);
  if (!versioned.empty()) {
    std::sort(versioned.begin(), versioned.end(), [](const std::string& a, const std::string& b) {
      return version_less(a.substr(a.find("cuda-") + 5), b.substr(b.find("cuda-") + 5));
    });
    return make(c, fs, toolkits, versioned.back(), "newest /usr/local/cuda-X.Y: " + versioned.back());
  }
  return none(c, "no CUDACXX, CUDAToolkit_ROOT, CUDA_PATH, nvcc on PATH or /usr/local/cuda*");
}

ToolkitChoice torch_choice(const platform::RootFs& fs, const EnvMap& env, const std::vector<Toolkit>& toolkits) {
  const std::string c = "torch_cpp_extension";
  // torch takes CUDA_HOME / CUDA_PATH as given, without checking that it exists.
  if (auto v = platform::env_value(env, "CUDA_HOME"); !v.empty()) return make(c, fs, toolkits, v, "CUDA_HOME=" + v);
  if (auto v = platform::env_value(env, "CUDA_PATH"); !v.empty()) return make(c, fs, toolkits, v, "CUDA_PATH=" + v);
  if (auto nvcc = fs.which("nvcc", platform::env_value(env, "PATH")); !nvcc.empty())
    // torch uses dirname(dirname(which nvcc)) without resolving links; we record the real directory.
    return make(c, fs, toolkits, parent_dir(parent_dir(nvcc)), "which nvcc: " + nvcc);
  if (fs.exists("/usr/local/cuda")) return make(c, fs, toolkits, "/usr/local/cuda", "/usr/local/cuda exists");
  return none(c, "CUDA_HOME, CUDA_PATH unset, no nvcc on PATH, no /usr/local/cuda: cpp_extension has no CUDA_HOME");
}

}  // namespace

std::vector<ToolkitChoice> choose_toolkits(const platform::RootFs& fs, const EnvMap& env, const std::vector<Toolkit>& toolkits) {
  std::vector<ToolkitChoice> out;
  if (auto nvcc = fs.which("nvcc", platform::env_value(env, "PATH")); !nvcc.empty())
    out.push_back(make("path", fs, toolkits, toolkit_of_nvcc(fs, nvcc), "nvcc on PATH: " + nvcc));
  else
    out.push_back(none("path", "no nvcc on PATH"));
  out.push_back(cmake_choice(fs, env, toolkits));
  out.push_back(torch_choice(fs, env, toolkits));
  return out;
}

}  // namespace gpucheck::inventory
