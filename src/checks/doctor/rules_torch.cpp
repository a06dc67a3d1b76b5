// The torch install itself: CPU-only on a GPU node, import failures, several installs.
#include <map>

#include "checks/doctor/fix_commands.h"
#include "checks/doctor/rules.h"
#include "checks/doctor/torch_choice.h"
#include "inventory/pasted_report.h"
#include "knowledge/version.h"
#include "core/text.h"

namespace gpucheck::doctor {
namespace {

bool inside(const std::string& path, const std::string& dir) {
  return !dir.empty() && starts_with(path, dir) && (path.size() == dir.size() || path[dir.size()] == '/');
}

}  // namespace

void check_torch_install(const DoctorContext& ctx, std::vector<Finding>& out) {
  for (const auto& py : ctx.inv.pythons) {
    std::string label = "python " + py.version + " at " + py.interpreter;
    if (!py.torch_import_error.empty()) {
      Finding f;
      f.id = "torch.import_failed";
      f.status = Status::kFail;
      f.title = "import torch fails in " + py.interpreter;
      f.evidence = {{"import error", py.torch_import_error, label}};
      f.explanation = "Nothing that needs torch (or builds against it) can work in this environment until the "
                      "import succeeds; the message names the missing library or symbol.";
      out.push_back(std::move(f));
    }
    if (py.torch_installed && !py.torch_path.empty() && !py.prefix.empty() && !inside(py.torch_path, py.prefix)) {
      {
        Finding f;
        f.id = "torch.outside_env";
        f.status = Status::kWarn;
        f.title = py.interpreter + " imports torch from " + py.torch_path + ", outside its environment " + py.prefix;
        f.evidence = {{"torch", py.torch_version + " at " + py.torch_path, label}, {"sys.prefix", py.prefix, label}};
        if (!ctx.env("PYTHONPATH").empty()) f.evidence.push_back({"PYTHONPATH", ctx.env("PYTHONPATH"), "environment"});
        f.explanation = "A torch in the user site (~/.local) or on PYTHONPATH shadows the environment's own, so "
                        "pip installs into one torch while programs import another.";
        f.fixes.push_back({1, "Ignore the user site and PYTHONPATH for this environment",
                           {"export PYTHONNOUSERSITE=1", "unset PYTHONPATH"}, "affects this shell only"});
        out.push_back(std::move(f));
      }
    }
  }

  // Several interpreters on PATH, each with its own torch: `python`, `pip` and `python3` may disagree.
  std::map<std::string, const inventory::PythonEnv*> installs;
  for (const auto& py : ctx.inv.pythons)
    if (py.torch_installed && contains(py.found_via, "PATH") && !py.torch_path.empty()) installs.emplace(py.torch_path, &py);
  if (installs.size() > 1) {
    Finding f;
    f.id = "torch.multiple_installs";
    f.status = Status::kWarn;
    f.title = std::to_string(installs.size()) + " different torch installs are reachable from PATH";
    for (const auto& [path, py] : installs)
      f.evidence.push_back({"torch " + py->torch_version, path, "python " + py->version + " at " + py->interpreter});
    f.explanation = "`pip install` and `python` can belong to different environments, so an extension gets built "
                    "against one torch and imported with another.";
    std::vector<std::string> cmds{"type -a python python3 pip pip3"};
    for (const auto& [path, py] : installs) cmds.push_back(shell_quote(py->interpreter) + " -m pip --version");
    f.fixes.push_back({1, "See which interpreter each command runs, then always install with `" +
                           (ctx.python ? ctx.python->interpreter : std::string("python3")) +
                           " -m pip` (or the interpreter of the environment you mean)",
                       cmds, "none"});
    out.push_back(std::move(f));
  }

  const auto* py = ctx.python;
  // A pasted program that asked CUDA of it and stopped on torch's assertion wanted the GPU, listed or not.
  const bool asked_cuda = py && py->cuda_error == inventory::kTorchNotCompiledWithCuda;
  if (py && py->torch_installed && py->torch_cuda.empty() && py->torch_import_error.empty() &&
      (!ctx.inv.gpus.empty() || asked_cuda)) {
    Finding f;
    f.id = "torch.cpu_only_on_gpu_node";
    f.status = Status::kFail;
    const std::string torch = py->torch_version == inventory::kTorchVersionNotPasted ? "torch" : "torch " + py->torch_version;
    f.title = ctx.inv.gpus.empty() ? torch + " is a CPU-only build but the program asks it for CUDA"
                                   : torch + " is a CPU-only build but this machine has " +
                                         std::to_string(ctx.inv.gpus.size()) + " GPU(s)";
    f.evidence = {{"torch", py->torch_version, ctx.python_label()},
                  {"torch.version.cuda", "None", ctx.python_label()}};
    if (asked_cuda) f.evidence.push_back({"the program", py->cuda_error, "the pasted report"});
    if (!ctx.inv.gpus.empty()) f.evidence.push_back({"GPU 0", ctx.inv.gpus.front().name, ctx.inv.gpus.front().source});
    f.explanation = "torch.cuda.is_available() is False and .cuda() raises \"Torch not compiled with CUDA enabled\". "
                    "pip took a +cpu wheel (a CPU index, a mirror, or a lock file).";
    std::string driver = ctx.inv.driver.cuda_version ? cuda_int_to_string(ctx.inv.driver.cuda_version) : "";
    // Prefer the CUDA of an installed toolkit so extension builds match too; else the newest the driver runs.
    std::string want;
    if (ctx.build.toolkit) want = major_minor(ctx.build.toolkit->version);
    if (!driver.empty() && (want.empty() || knowledge::compare_versions(want, driver) > 0)) want = driver;
    // The installed release's CUDA build first: torchvision, torchaudio and extensions made for it keep working.
    std::optional<planner::Plan> same, c;
    if (!want.empty()) same = torch_for_cuda_in_release(ctx, want, driver, py->torch_version);
    if (!want.empty()) c = torch_for_cuda(ctx, want, driver);
    // A Jetson runs NVIDIA's own torch builds, one per JetPack release, not pytorch.org's: read the release first.
    const bool jetson = !ctx.inv.gpus.empty() && ctx.inv.gpus.front().name.find("Jetson") != std::string::npos;
    if (jetson) {
      f.add_fix("Install NVIDIA's torch wheel for this JetPack release (NVIDIA's \"Installing PyTorch for Jetson "
                "Platform\" names one per release; pip's and pytorch.org's aarch64 wheels carry no CUDA for "
                "Jetson's GPU); read the release first",
                {"cat /etc/nv_tegra_release"});
      f.references.push_back("https://docs.nvidia.com/deeplearning/frameworks/install-pytorch-jetson-platform/index.html");
      out.push_back(std::move(f));
      return;
    }
    if (same) f.fixes.push_back(install_torch_step(*same, "", 1));
    if (c && (!same || c->torch.version != same->torch.version))
      f.fixes.push_back(install_torch_step(*c, py->torch_version, same ? 2 : 1));
    // Nothing here says which CUDA the driver runs: read it first (a pasted report without nvidia-smi).
    else f.add_fix("Read which CUDA the NVIDIA driver supports, then install torch's build for that CUDA (each build's "
                   "--index-url is on pytorch.org's install page)",
                   {"nvidia-smi"});
    out.push_back(std::move(f));
  }
}

}  // namespace gpucheck::doctor
