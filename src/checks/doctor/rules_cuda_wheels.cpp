// NVIDIA's CUDA library wheels of two CUDA majors in one environment (nvidia-cudnn-cu11 beside
// nvidia-cudnn-cu12): both install into site-packages/nvidia/<library>/lib, so the one installed last owns
// the files (cuDNN 8's libcudnn.so.8 exists in both) and torch may load the other major's build.
#include "checks/doctor/rules_cuda_wheels.h"

#include <map>

#include "checks/doctor/fix_commands.h"
#include "core/text.h"

namespace gpucheck::doctor {

void check_cuda_wheel_majors(const DoctorContext& ctx, std::vector<Finding>& out) {
  if (!ctx.python) return;
  const auto& py = *ctx.python;
  std::map<std::string, std::map<std::string, std::string>> by_library;  // "cudnn" -> {"cu11": version, ...}
  for (const auto& [name, version] : py.packages) {
    if (!starts_with(name, "nvidia-")) continue;
    auto dash = name.rfind("-cu");
    if (dash == std::string::npos || dash <= 7) continue;
    std::string major = name.substr(dash + 1);
    if (major != "cu11" && major != "cu12" && major != "cu13") continue;
    by_library[name.substr(7, dash - 7)][major] = version;
  }
  const std::string torch_major = ctx.torch_cuda().empty() ? "" : "cu" + ctx.torch_cuda().substr(0, ctx.torch_cuda().find('.'));
  const std::string python = py.executable.empty() ? py.interpreter : py.executable;
  for (const auto& [lib, majors] : by_library) {
    if (majors.size() < 2) continue;
    Finding f;
    f.id = "python.cuda_wheels_two_majors";
    f.status = Status::kWarn;
    std::string list;
    for (const auto& [m, v] : majors) {
      list += (list.empty() ? "" : " and ") + ("nvidia-" + lib + "-" + m + " " + v);
      f.evidence.push_back({"nvidia-" + lib + "-" + m, v, "packages of " + python});
    }
    f.title = list + " are both installed: they share site-packages/nvidia/" + lib + "/lib";
    f.explanation = "Both wheels install the same directory, so whichever was installed last owns the files that "
                    "exist in both; torch" + (torch_major.empty() ? "" : " (built for " + torch_major + ")") +
                    " may load the other CUDA major's " + lib + " (NCCL or cuDNN errors at run time).";
    if (!torch_major.empty() && majors.count(torch_major)) {
      std::vector<std::string> cmds;
      for (const auto& [m, v] : majors)
        if (m != torch_major) cmds.push_back(shell_quote(python) + " -m pip uninstall -y " + shell_quote("nvidia-" + lib + "-" + m));
      cmds.push_back(shell_quote(python) + " -m pip install --force-reinstall --no-deps " +
                     shell_quote("nvidia-" + lib + "-" + torch_major + "==" + majors.at(torch_major)));
      f.add_fix("Keep only torch's " + torch_major + " build and restore its files", cmds,
                "a package that required the other wheel may then miss it (`" + shell_quote(python) +
                    " -m pip check` names it)");
    }
    out.push_back(std::move(f));
  }
}

}  // namespace gpucheck::doctor
