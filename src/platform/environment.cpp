#include "platform/environment.h"

#include <unistd.h>


namespace gpucheck::platform {

bool is_allowed_variable(const std::string& name) {
  static const char* exact[] = {"CUDA_HOME", "CUDA_PATH", "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER",
                                "LD_LIBRARY_PATH", "LD_PRELOAD", "PATH", "TORCH_CUDA_ARCH_LIST",
                                "TORCH_USE_RTLD_GLOBAL",
                                "CONDA_PREFIX", "CONDA_DEFAULT_ENV", "VIRTUAL_ENV", "PYTHONPATH",
                                "CC", "CXX", "CUDAHOSTCXX", "NVCC_CCBIN", "NVCC_APPEND_FLAGS",
                                "NVCC_PREPEND_FLAGS", "OMP_NUM_THREADS", "SLURM_JOB_ID", "SLURM_NODELIST",
                                "SLURM_PROCID", "SLURM_LOCALID", "SLURMD_NODENAME", "OMPI_COMM_WORLD_RANK",
                                "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_SIZE"};
  for (auto* e : exact)
    if (name == e) return true;
  for (const char* prefix : {"NCCL_", "CUDA_MODULE_", "CUDA_LAUNCH_", "PYTORCH_", "NVIDIA_", "GPUCHECK_"})
    if (name.rfind(prefix, 0) == 0) return true;
  return false;
}

std::map<std::string, std::string> allowed_environment(char** envp) {
  std::map<std::string, std::string> out;
  for (char** e = envp; e && *e; ++e) {
    std::string entry(*e);
    auto eq = entry.find('=');
    if (eq == std::string::npos) continue;
    std::string name = entry.substr(0, eq);
    if (!is_allowed_variable(name)) continue;
    out[name] = recorded_value(name, entry.substr(eq + 1));
  }
  return out;
}

std::string env_value(const std::map<std::string, std::string>& env, const std::string& key) {
  auto it = env.find(key);
  return it == env.end() ? "" : it->second;
}

std::string hostname() {
  char buf[256] = {0};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown-host";
  std::string h(buf);
  // Also every control byte: the name becomes a file name that `run` prints (an ESC would reach the
  // terminal, a newline would forge a line).
  for (char& c : h)
    if (c == '/' || c == ' ' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '_';
  return h.empty() ? "unknown-host" : h;
}

}  // namespace gpucheck::platform
