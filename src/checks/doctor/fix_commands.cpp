#include "checks/doctor/fix_commands.h"

#include <cctype>

#include "checks/doctor/doctor_context.h"

namespace gpucheck::doctor {

Fix use_toolkit_step(const inventory::Toolkit& t, int rank) {
  Fix f;
  f.rank = rank;
  f.summary = "Build with the CUDA " + major_minor(t.version) + " toolkit at " + t.root;
  f.commands = {"export CUDA_HOME=" + shell_quote(t.root),
                "export PATH=" + shell_quote(t.root + "/bin") + ":\"$PATH\"",
                "export LD_LIBRARY_PATH=" + shell_quote(toolkit_lib_dir(t)) + ":\"$LD_LIBRARY_PATH\""};
  f.cost = "nothing to download; affects this shell only (same as: eval \"$(gpucheck use-cuda " +
           major_minor(t.version) + ")\")";
  return f;
}

Fix install_torch_step(const planner::Plan& p, const std::string& current, int rank) {
  Fix f;
  f.rank = rank;
  const auto& t = p.torch;
  f.summary = "Install torch " + t.version + " built for CUDA " + t.cuda + " (" +
              (t.index_url.empty() ? std::string("PyPI") : t.tag + " index") + ")";
  f.commands = p.commands;
  f.cost = "downloads torch " + t.version + " (about 2 GB with its CUDA libraries)";
  if (!current.empty())
    f.cost += "; replaces torch " + current +
              ", so every extension built against it must be rebuilt, and a project pin on torch must allow " +
              t.version;
  return f;
}

Fix install_toolkit_step(const std::string& mm, int rank, bool conda) {
  Fix f;
  f.rank = rank;
  if (!conda) {  // no conda here: its commands (and $CONDA_PREFIX) would not work
    f.summary = "Install a CUDA " + mm + " toolkit side by side (NVIDIA's installer for " + mm +
                " from https://developer.nvidia.com/cuda-toolkit-archive, e.g. into /usr/local/cuda-" + mm +
                ") and build with it (eval \"$(gpucheck use-cuda " + mm + ")\")";
    f.cost = "about 3 GB download; the system toolkit stays as it is";
    return f;
  }
  f.summary = "Install a CUDA " + mm + " toolkit side by side (no root) and build with it";
  f.commands = {"conda install -y -c " + shell_quote("nvidia/label/cuda-" + mm + ".0") + " cuda-toolkit",
                "export CUDA_HOME=\"$CONDA_PREFIX\"", "export PATH=\"$CONDA_PREFIX/bin:$PATH\""};
  f.cost = "about 3 GB download into the active conda environment; the system toolkit stays as it is";
  return f;
}

}  // namespace gpucheck::doctor
