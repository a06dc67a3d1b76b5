// NVIDIA's CUDA library wheels of two CUDA majors in one environment (nvidia-cudnn-cu11 beside
// nvidia-cudnn-cu12): both install into site-packages/nvidia/<library>/lib, so the one installed last owns
// the files (cuDNN 8's libcudnn.so.8 exists in both) and torch may load the other major's build. CUDA 13's
// wheels, unsuffixed, install into nvidia/cu13: no clash, but two majors' builds in one environment.
#include "checks/doctor/rules_cuda_wheels.h"

#include <map>

#include "checks/doctor/fix_commands.h"
#include "core/text.h"

namespace gpucheck::doctor {

void check_cuda_wheel_majors(const DoctorContext& ctx, std::vector<Finding>& out) {
  if (!ctx.python) return;
  const auto& py = *ctx.python;
  struct Wheel {
    std::string name, version;
  };
  std::map<std::string, std::map<std::string, Wheel>> by_library;  // "cudnn" -> {"cu11": its wheel, ...}
  for (const auto& [name, version] : py.packages) {
    if (!starts_with(name, "nvidia-")) continue;
    auto dash = name.rfind("-cu");
    std::string major = dash == std::string::npos || dash <= 7 ? "" : name.substr(dash + 1);
    if (major == "cu11" || major == "cu12" || major == "cu13") {
      by_library[name.substr(7, dash - 7)][major] = {name, version};
    } else if (const auto dot = version.find('.'); dot != std::string::npos && version.substr(0, dot) == "13") {
      // CUDA 13's wheels dropped the suffix ("nvidia-cuda-runtime 13.0.96") and install into nvidia/cu13.
      by_library[name.substr(7)]["cu13"] = {name, version};
    }
  }
  const std::string torch_major = ctx.torch_cuda().empty() ? "" : "cu" + ctx.torch_cuda().substr(0, ctx.torch_cuda().find('.'));
  const std::string python = py.executable.empty() ? py.interpreter : py.executable;
  for (const auto& [lib, majors] : by_library) {
    if (majors.size() < 2) continue;
    // CUDA 13's unsuffixed wheels install into site-packages/nvidia/cu13, so they share no file with a cu12 wheel.
    bool shared_dir = true;
    for (const auto& [m, w] : majors)
      if (m == "cu13" && w.name.rfind("-cu13") != w.name.size() - 5) shared_dir = false;
    Finding f;
    f.id = "python.cuda_wheels_two_majors";
    f.status = Status::kWarn;
    std::string list;
    for (const auto& [m, w] : majors) {
      list += (list.empty() ? "" : " and ") + (w.name + " " + w.version);
      f.evidence.push_back({w.name, w.version, "packages of " + python});
    }
    if (shared_dir) {
      f.title = list + " are both installed: they share site-packages/nvidia/" + lib + "/lib";
      f.explanation = "Both wheels install the same directory, so whichever was installed last owns the files that "
                      "exist in both; torch" + (torch_major.empty() ? "" : " (built for " + torch_major + ")") +
                      " may load the other CUDA major's " + lib + " (NCCL or cuDNN errors at run time).";
    } else {
      f.title = list + " are both installed: two CUDA majors' " + lib + " in one environment";
      f.explanation = "CUDA 13's wheels install into site-packages/nvidia/cu13 and CUDA 12's into nvidia/" + lib +
                      ", so neither overwrites the other; but a package that pulled in one major was built for it, and "
                      "beside a torch" + (torch_major.empty() ? "" : " built for " + torch_major) +
                      " of the other its compiled part looks for libraries (libcudart.so.13 or .12) the loader does "
                      "not find. `pip show` names which package required each.";
      std::vector<std::string> cmds;
      for (const auto& [m, w] : majors) cmds.push_back(shell_quote(python) + " -m pip show " + shell_quote(w.name));
      f.add_fix("See which package required each major (their \"Required-by\"), then install the build of it for "
                "torch's CUDA", cmds);
    }
    if (shared_dir && !torch_major.empty() && majors.count(torch_major)) {
      std::vector<std::string> cmds;
      for (const auto& [m, w] : majors)
        if (m != torch_major) cmds.push_back(shell_quote(python) + " -m pip uninstall -y " + shell_quote(w.name));
      const Wheel& keep = majors.at(torch_major);
      cmds.push_back(shell_quote(python) + " -m pip install --force-reinstall --no-deps " +
                     shell_quote(keep.name + "==" + keep.version));
      f.add_fix("Keep only torch's " + torch_major + " build and restore its files", cmds,
                "a package that required the other wheel may then miss it (`" + shell_quote(python) +
                    " -m pip check` names it)");
    }
    out.push_back(std::move(f));
  }
}

}  // namespace gpucheck::doctor
