// nvcc vs torch.version.cuda, and where CUDA_HOME points.
#include "checks/doctor/fix_commands.h"
#include "checks/doctor/rules.h"
#include "checks/doctor/torch_choice.h"
#include "knowledge/version.h"
#include "core/text.h"

namespace gpucheck::doctor {
namespace {

std::string toolkit_label(const inventory::Toolkit& t) { return major_minor(t.version) + " at " + t.root; }

std::string fill(std::string text, const std::string& nvcc, const std::string& torch_cuda) {
  auto put = [&](const std::string& key, const std::string& value) {
    for (auto p = text.find(key); p != std::string::npos; p = text.find(key, p + value.size()))
      text.replace(p, key.size(), value);
  };
  put("{nvcc}", nvcc);
  put("{torch_cuda}", torch_cuda);
  return text;
}

/// Fixes for "the build toolkit does not match torch": use a matching installed toolkit, install the torch
/// build that matches the toolkit, or install a matching toolkit.
std::vector<Fix> mismatch_fixes(const DoctorContext& ctx, const std::string& nvcc_mm,
                                    const std::string& torch_mm) {
  std::vector<Fix> fixes;
  int rank = 1;
  auto matching = ctx.toolkits_with(torch_mm);
  if (!matching.empty()) fixes.push_back(use_toolkit_step(*matching.front(), rank++));
  std::string current = ctx.python ? ctx.python->torch_version : "";
  // A toolkit matching torch keeps every installed extension valid; replacing torch does not, so it comes last.
  if (matching.empty()) fixes.push_back(install_toolkit_step(torch_mm, rank++, planner_machine(ctx).conda));
  if (auto c = torch_for_cuda(ctx, nvcc_mm, ctx.inv.driver.present ? cuda_int_to_string(ctx.inv.driver.cuda_version) : ""))
    fixes.push_back(install_torch_step(*c, current, rank++));
  return fixes;
}

void check_mismatch(const DoctorContext& ctx, std::vector<Finding>& out) {
  const std::string torch_cuda = ctx.torch_cuda();
  const inventory::Toolkit* tk = ctx.build.toolkit;
  if (torch_cuda.empty() || !tk || tk->version.empty()) return;
  auto tv = knowledge::Version::parse(torch_cuda), nv = knowledge::Version::parse(tk->version);
  if (!tv || !nv) return;
  std::string nvcc_mm = nv->major_minor(), torch_mm = tv->major_minor();
  if (nvcc_mm == torch_mm) return;
  auto rule = ctx.kb.cuda_check_rule(ctx.python->torch_version);
  bool major = nv->major() != tv->major();
  // torch < 1.10 compares nothing: a minor mismatch builds and runs; a major one builds too, and the
  // extension then carries another CUDA's code beside torch's runtime (found at run time, not at build).
  const bool unchecked = rule && rule->check == "none";
  // A pasted build's own check refused the pair (apex's refuses a minor mismatch too): that build stopped.
  const bool refused = !ctx.python->build_refusal.empty();
  if (unchecked && !major && !refused) return;
  std::string setuptools;
  if (auto it = ctx.python->packages.find("setuptools"); it != ctx.python->packages.end()) setuptools = it->second;
  bool old_setuptools = rule && rule->old_setuptools_all_fatal && !setuptools.empty() &&
                        knowledge::compare_versions(setuptools, "49.4") < 0;

  Finding f;
  f.id = major ? "cuda.nvcc_torch_major_mismatch" : "cuda.nvcc_torch_minor_mismatch";
  // At risk, not broken: nothing installed changes, only a later source build against this torch stops.
  // It is an error only when the command's goal is that build (core/verdict.h apply_goal).
  f.status = Status::kWarn;
  if (major || old_setuptools || refused) f.details["fatal_for_build"] = true;  // refused, or (torch < 1.10) built broken
  f.title = "Extension builds would use nvcc " + nvcc_mm + " but torch " + ctx.python->torch_version +
            " was built with CUDA " + torch_mm;
  f.summary = unchecked
                  ? "Matters only when an extension is compiled against this torch, which does not compare nvcc with its "
                    "CUDA: the build goes through and the extension fails at run time instead (its device code is "
                    "nvcc " + nvcc_mm + "'s, e.g. \"no kernel image is available\" on a GPU that CUDA cannot target)."
                  : (major || old_setuptools)
                  ? "Matters only when an extension is compiled against this torch (an sdist without a wheel for it, "
                    "`pip install --no-build-isolation`, a JIT build): that build stops. What is installed is not affected."
                  : "Matters only when an extension is compiled against this torch; torch itself only warns.";
  f.evidence = {{"torch.version.cuda", torch_cuda, ctx.python_label()},
                {"torch", ctx.python->torch_version, ctx.python->torch_path},
                {"nvcc", tk->version, tk->nvcc.empty() ? tk->root : tk->nvcc},
                {"toolkit chosen by torch.utils.cpp_extension", tk->root, ctx.build.reason}};
  if (old_setuptools) f.evidence.push_back({"setuptools", setuptools, ctx.python_label()});
  if (refused) f.evidence.push_back({"the build's check", ctx.python->build_refusal, "the pasted report"});
  if (unchecked) {
    f.explanation = "torch " + ctx.python->torch_version + " predates torch.utils.cpp_extension's CUDA version check (" +
                    rule->note + "), so nothing stops the build; an extension built this way runs CUDA " + nvcc_mm +
                    " code in torch's CUDA " + torch_mm + " process.";
  } else if (major) {
    f.explanation = "torch.utils.cpp_extension refuses a CUDA major mismatch, so every extension built from "
                    "source (bmtrain <= 0.2.2, flash-attn, apex, DeepSpeed ops) fails with: " +
                    fill(rule ? rule->text : "", nvcc_mm, torch_mm);
  } else if (old_setuptools) {
    f.explanation = "A minor mismatch is only a warning in torch, but with setuptools " + setuptools +
                    " (< 49.4) this torch's version check raises on every mismatch.";
    f.fixes.push_back({1, "Upgrade setuptools so a minor mismatch is only a warning",
                       {"pip install 'setuptools>=49.4,<70'"}, "small download"});
  } else {
    f.explanation = "Same major: torch only warns (" + fill(rule ? rule->minor_text : "", nvcc_mm, torch_mm) +
                    "), but extensions with a strict check (apex) refuse it.";
  }
  for (auto& fix : mismatch_fixes(ctx, nvcc_mm, torch_mm)) {
    fix.rank = static_cast<int>(f.fixes.size()) + 1;
    f.fixes.push_back(fix);
  }
  if (rule) f.references.push_back(rule->source);
  out.push_back(std::move(f));
}

void check_cuda_home(const DoctorContext& ctx, std::vector<Finding>& out) {
  const auto& b = ctx.build;
  std::vector<std::string> found;
  for (const auto& t : ctx.inv.toolkits) found.push_back(toolkit_label(t));

  if (b.dangling) {
    // Named by CUDA_HOME / CUDA_PATH as a rule; otherwise the collector's own words say what chose it.
    const bool by_variable = !b.variable.empty();
    Finding f;
    f.id = "cuda.home_dangling";
    f.status = Status::kFail;
    f.title = (by_variable ? b.variable + "=" + b.dangling_path : b.reason) + " names no CUDA toolkit";
    f.evidence = {{by_variable ? b.variable : "toolkit chosen by torch.utils.cpp_extension", b.dangling_path,
                   by_variable ? "environment" : b.reason},
                  {"toolkits found", found.empty() ? "none" : join(found, "; "), "inventory"}};
    f.explanation = "torch.utils.cpp_extension takes " + (by_variable ? b.variable : std::string("that directory")) +
                    " as the toolkit without checking it, so builds fail with \"nvcc not found at '" +
                    b.dangling_path + "/bin/nvcc'\" or compile against missing headers.";
    int rank = 1;
    const inventory::Toolkit* pick = nullptr;
    std::string want = major_minor(ctx.torch_cuda());
    if (!want.empty() && !ctx.toolkits_with(want).empty()) pick = ctx.toolkits_with(want).front();
    if (!pick && !ctx.inv.toolkits.empty()) pick = &ctx.inv.toolkits.front();
    if (pick) f.fixes.push_back(use_toolkit_step(*pick, rank++));
    if (by_variable)
      f.fixes.push_back({rank++, "Unset it so torch falls back to nvcc on PATH", {"unset " + b.variable},
                         "affects this shell only"});
    f.references.push_back("https://github.com/pytorch/pytorch/blob/main/torch/utils/cpp_extension.py");
    out.push_back(std::move(f));
    return;
  }

  if (ctx.inv.toolkits.empty()) {
    bool gpu_torch = !ctx.torch_cuda().empty();
    Finding f;
    f.id = "cuda.no_toolkit";
    f.status = gpu_torch ? Status::kWarn : Status::kInfo;
    f.title = "No CUDA toolkit (nvcc) found";
    f.evidence = {{"toolkits found", "none", "inventory"}};
    if (gpu_torch) f.evidence.push_back({"torch.version.cuda", ctx.torch_cuda(), ctx.python_label()});
    f.explanation = "Prebuilt wheels run without a toolkit, but anything compiled at install or first use "
                    "(bmtrain <= 0.2.2, flash-attn without a matching wheel, apex, DeepSpeed ops) needs nvcc.";
    if (gpu_torch) f.fixes.push_back(install_toolkit_step(major_minor(ctx.torch_cuda()), 1, planner_machine(ctx).conda));
    out.push_back(std::move(f));
    return;
  }

  if (!ctx.has_env("CUDA_HOME") && !ctx.has_env("CUDA_PATH") && b.toolkit) {
    Finding f;
    f.id = "cuda.home_unset";
    f.status = Status::kInfo;
    f.title = "CUDA_HOME is unset; extension builds would use " + toolkit_label(*b.toolkit) + " (" + b.via + ")";
    f.evidence = {{"CUDA_HOME", "unset", "environment"},
                  {"toolkit chosen by torch.utils.cpp_extension", b.toolkit->root, b.reason},
                  {"toolkits found", join(found, "; "), "inventory"}};
    f.explanation = "torch picks CUDA_HOME, then CUDA_PATH, then the nvcc on PATH, then /usr/local/cuda; "
                    "setting CUDA_HOME makes the choice explicit.";
    f.fixes.push_back(use_toolkit_step(*b.toolkit, 1));
    out.push_back(std::move(f));
  }

  if (ctx.has_env("CUDA_HOME") && b.toolkit && ctx.path_toolkit && ctx.path_toolkit != b.toolkit &&
      major_minor(ctx.path_toolkit->version) != major_minor(b.toolkit->version)) {
    Finding f;
    f.id = "cuda.home_path_disagree";
    f.status = Status::kWarn;
    f.title = "CUDA_HOME is " + toolkit_label(*b.toolkit) + " but the nvcc on PATH is " +
              toolkit_label(*ctx.path_toolkit);
    f.evidence = {{"CUDA_HOME", ctx.env("CUDA_HOME"), "environment"},
                  {"nvcc on PATH", ctx.path_toolkit->nvcc, "PATH"}};
    f.explanation = "torch extensions build with CUDA_HOME while CMake-based builds (bmtrain >= 0.2.3, "
                    "FindCUDAToolkit) and plain nvcc calls use the one on PATH: one install can mix two toolkits.";
    f.fixes.push_back(use_toolkit_step(*b.toolkit, 1));
    out.push_back(std::move(f));
  }
}

}  // namespace

void check_toolkit_vs_torch(const DoctorContext& ctx, std::vector<Finding>& out) {
  check_cuda_home(ctx, out);
  check_mismatch(ctx, out);
}

}  // namespace gpucheck::doctor
