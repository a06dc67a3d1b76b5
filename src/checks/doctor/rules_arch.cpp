// GPU compute capability vs the architectures torch was compiled for.
#include <algorithm>
#include <set>

#include "checks/doctor/arch_coverage.h"
#include "checks/doctor/fix_commands.h"
#include "checks/doctor/rules.h"
#include "checks/doctor/torch_choice.h"
#include "checks/planner/requirements_file.h"
#include "inventory/paste_formats.h"
#include "inventory/paste_text.h"
#include "knowledge/version.h"
#include "core/text.h"

namespace gpucheck::doctor {
namespace {

/// The planner's torch for this machine with a SASS build for `cc` (and every other GPU here).
Fix torch_with_arch(const DoctorContext& ctx, const std::string& cc, int rank, bool& found) {
  found = false;
  planner::Machine m = planner_machine(ctx);
  m.installed_torch.clear();  // a replacement is asked for
  if (std::find(m.gpu_ccs.begin(), m.gpu_ccs.end(), cc) == m.gpu_ccs.end()) m.gpu_ccs.push_back(cc);
  auto r = planner::resolve(ctx.kb, m, {planner::ask_from_spec("torch", "compute capability " + cc)}, 8);
  // The planner accepts a build whose arch list the knowledge base lacks (torch 2.15: only its PyPI build is
  // recorded); a fix for missing kernels must name a build whose list is known to hold them.
  for (const auto& plan : r.plans)
    if (arch_coverage(cc, plan.torch.archs) == Coverage::kSass) {
      found = true;
      return install_torch_step(plan, ctx.python->torch_version, rank);
    }
  return {};
}

/// The fixes of a GPU torch has no kernels for: the planner's torch whose recorded arch list holds them, else
/// the CUDA that first supports the architecture.
void add_arch_fixes(const DoctorContext& ctx, const std::string& cc, const std::optional<knowledge::ArchInfo>& arch, Finding& f) {
  bool found = false;
  Fix fix = torch_with_arch(ctx, cc, 1, found);
  if (found) f.fixes.push_back(fix);
  if (!arch) return;
  f.references.push_back(arch->source);
  if (!found)
    f.fixes.push_back({1, "Use a torch built with CUDA >= " + arch->first_cuda + " that lists sm_" +
                              cc.substr(0, cc.find('.')) + cc.substr(cc.find('.') + 1) + " (none recorded for this Python and driver)",
                       {}, "check https://pytorch.org/get-started/locally/"});
}

std::string cc_of(const inventory::Gpu& g) { return std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor); }
std::string sm_of(const inventory::Gpu& g) { return "sm_" + std::to_string(g.cc_major) + std::to_string(g.cc_minor); }

/// torch's own warning, pasted without the arch list it was judged by: the GPU it names is not supported,
/// whatever torch's version (a nightly's list is in no table).
void refused_by_torch_warning(const DoctorContext& ctx, const std::string& torch_name, std::vector<Finding>& out) {
  const std::string& said = ctx.python->torch_gpu_refusal;
  const inventory::Gpu* gpu = &ctx.inv.gpus.front();
  for (const auto& g : ctx.inv.gpus)
    if (!g.name.empty() && said.find(g.name) != std::string::npos) {
      gpu = &g;
      break;
    }
  Finding f;
  f.id = "gpu.arch_not_in_torch";
  f.status = Status::kFail;
  f.title = torch_name + " says it does not support " + gpu->name + (gpu->cc_major ? " (" + sm_of(*gpu) + ")" : "");
  f.evidence = {{"torch's warning", said, "the pasted report"},
                {"GPU " + std::to_string(gpu->index), gpu->name + (gpu->cc_major ? " (compute capability " + cc_of(*gpu) + ")" : ""), gpu->source}};
  f.explanation = "torch compares each GPU's compute capability with the architectures its wheel was built for "
                  "(torch/cuda/__init__.py) and warns when none runs on it: its kernels then fail with \"CUDA error: "
                  "no kernel image is available for execution on the device\".";
  if (gpu->cc_major) add_arch_fixes(ctx, cc_of(*gpu), ctx.kb.arch(cc_of(*gpu)), f);
  out.push_back(std::move(f));
}

/// No arch list is recorded for this build (a nightly, the PyTorch index's own wheels), but its CUDA decides
/// part of it: a toolkit older than the first to know a GPU's major architecture cannot compile for it, nor can
/// one newer than the last to build the GPU's own architecture (data/compat/cuda_archs.json), and the cuBLAS and
/// cuDNN it bundles have no code for it either: an sm_120 RTX 5090 beside a cu126 build, a Pascal GPU beside
/// a cu130 one. Within a known major an older minor's SASS runs, so a newer minor alone is not judged.
void check_cuda_cannot_build(const DoctorContext& ctx, const std::string& torch_name, std::vector<Finding>& out) {
  const std::string torch_cuda = major_minor(ctx.torch_cuda());
  std::set<std::string> seen;
  for (const auto& g : ctx.inv.gpus) {
    if (g.cc_major == 0 || !seen.insert(cc_of(g)).second) continue;
    const auto major = ctx.kb.arch(std::to_string(g.cc_major) + ".0");
    const auto own = ctx.kb.arch(cc_of(g));
    const bool predates = major && !major->first_cuda.empty() && knowledge::compare_versions(torch_cuda, major->first_cuda) < 0;
    const bool dropped = own && !own->last_cuda.empty() && knowledge::compare_versions(torch_cuda, own->last_cuda) > 0;
    if (!predates && !dropped) continue;
    Finding f;
    f.id = "gpu.arch_not_in_torch";
    f.status = Status::kFail;
    f.title = torch_name + " has no kernels for " + g.name + " (" + sm_of(g) + "): its CUDA " + torch_cuda +
              (predates ? " predates the GPU" : " no longer builds for it");
    f.evidence = {{"GPU " + std::to_string(g.index), g.name + " (compute capability " + cc_of(g) + ")", g.source},
                  {"torch.version.cuda", torch_cuda, ctx.python_label()},
                  predates ? Evidence{"first CUDA for compute capability " + std::to_string(g.cc_major) + ".x",
                                                 major->first_cuda, "data/compat/cuda_archs.json"}
                           : Evidence{"last CUDA for " + sm_of(g), own->last_cuda, "data/compat/cuda_archs.json"}};
    f.explanation = "CUDA " + torch_cuda + " cannot compile for " + sm_of(g) +
                    (predates ? " (compute capability " + std::to_string(g.cc_major) + ".x is first in CUDA " + major->first_cuda + ")"
                              : " (the last CUDA that does is " + own->last_cuda + ")") +
                    ", so this torch holds no SASS for it and its bundled cuBLAS and cuDNN have none: torch warns \"" +
                    g.name + " with CUDA capability " + sm_of(g) +
                    " is not compatible with the current PyTorch installation\" and the first kernel fails with \"no "
                    "kernel image is available for execution on the device\".";
    add_arch_fixes(ctx, cc_of(g), own, f);
    out.push_back(std::move(f));
  }
}

/// TORCH_CUDA_ARCH_LIST entries this torch's extension builder does not know: it raises
/// "ValueError: Unknown CUDA arch (9.0) or GPU not supported" before compiling anything.
void check_arch_list_env(const DoctorContext& ctx, std::vector<Finding>& out) {
  std::string list = ctx.env("TORCH_CUDA_ARCH_LIST");
  if (list.empty() || !ctx.python || !ctx.python->torch_installed) return;
  auto known = ctx.kb.torch_known_archs(ctx.python->torch_version);
  if (known.empty()) return;
  std::vector<std::string> unknown, kept;
  for (const auto& part : split(list, ' '))
    for (const auto& raw : split(part, ';')) {
      std::string a = trim(raw);
      if (a.empty()) continue;
      std::string cc = a.substr(0, a.find('+'));
      (std::find(known.begin(), known.end(), cc) == known.end() ? unknown : kept).push_back(a);
    }
  if (unknown.empty()) return;
  Finding f;
  f.id = "torch.arch_list_unknown";
  f.status = Status::kFail;
  f.title = "TORCH_CUDA_ARCH_LIST names " + join(unknown, ", ") + ", which torch " + ctx.python->torch_version +
            " does not know";
  f.evidence = {{"TORCH_CUDA_ARCH_LIST", list, "environment"},
                {"architectures torch " + major_minor(ctx.python->torch_version) + " accepts", join(known, " "),
                 "data/compat/torch_extensions.json"}};
  f.explanation = "Every extension build stops in torch.utils.cpp_extension with \"ValueError: Unknown CUDA arch (" +
                  unknown.front() + ") or GPU not supported\".";
  if (!kept.empty())
    f.fixes.push_back({1, "Keep only the architectures this torch knows",
                       {"export TORCH_CUDA_ARCH_LIST=" + shell_quote(join(kept, " "))}, "affects this shell only"});
  else
    f.fixes.push_back({1, "Let torch build for the visible GPUs", {"unset TORCH_CUDA_ARCH_LIST"}, "affects this shell only"});
  f.references.push_back("https://github.com/pytorch/pytorch/blob/main/torch/utils/cpp_extension.py");
  out.push_back(std::move(f));
}

/// An extension whose own report lists the GPU code in its binary (detectron2's collect_env "arch flags",
/// cuobjdump's ELF list: SASS only) with none for a GPU here: older than every listed architecture, no
/// kernel can run (FAIL); newer, only PTX the list does not show could (WARN). Both: "no kernel image is
/// available for execution on the device" at its first kernel (detectron2 #235, #1621, #740).
void check_extension_archs(const DoctorContext& ctx, std::vector<Finding>& out) {
  for (const auto& [ext, archs] : ctx.python->extension_archs) {
    // Built without a CUDA compiler: no kernel for any GPU, beside a torch that uses one.
    const inventory::Gpu* any_gpu = ctx.inv.gpus.empty() ? nullptr : &ctx.inv.gpus.front();
    if (archs.empty() && any_gpu && !ctx.torch_cuda().empty()) {
      Finding f;
      f.id = "ext.arch_not_built";
      f.status = Status::kFail;
      f.title = ext + " was built without CUDA: no kernels for " + any_gpu->name;
      f.evidence = {{"GPU " + std::to_string(any_gpu->index), any_gpu->name, any_gpu->source},
                    {ext + "'s CUDA compiler", "not available", "pasted: " + ext + "'s own report"},
                    {"torch.version.cuda", ctx.torch_cuda(), ctx.python_label()}};
      f.explanation = "No nvcc was found when it was built (CUDA_HOME unset, no toolkit), so only its CPU code was "
                      "compiled: its GPU ops fail (\"Not compiled with GPU support\").";
      f.fixes.push_back({1, "Rebuild " + ext + " from source with the CUDA toolkit of torch's CUDA (" + ctx.torch_cuda() +
                                ") visible, as it was installed",
                         {"nvcc --version", "export FORCE_CUDA=1"},
                         "then run the same install of " + ext + " again in this shell, with CUDA_HOME set to that toolkit"});
      out.push_back(std::move(f));
      continue;
    }
    std::string lowest;
    for (const auto& a : archs)
      if (std::string cc = arch_to_cc(a); !cc.empty() && (lowest.empty() || knowledge::compare_versions(cc, lowest) < 0)) lowest = cc;
    if (lowest.empty()) continue;
    std::set<std::string> seen;
    for (const auto& g : ctx.inv.gpus) {
      const std::string cc = cc_of(g);
      if (g.cc_major == 0 || !seen.insert(cc).second || arch_coverage(cc, archs) == Coverage::kSass) continue;
      const bool older = knowledge::compare_versions(cc, lowest) < 0;
      const std::string sm = sm_of(g);
      Finding f;
      f.id = "ext.arch_not_built";
      f.status = older ? Status::kFail : Status::kWarn;
      f.title = ext + " was built without kernels for " + g.name + " (" + sm + ")";
      f.evidence = {{"GPU " + std::to_string(g.index), g.name + " (compute capability " + cc + ")", g.source},
                    {ext + " arch flags", join(archs, ", "), "pasted: " + ext + "'s own report (cuobjdump of its binary)"}};
      f.explanation = older ? "Its binary holds SASS for " + join(archs, ", ") + " only, and no code built for a newer "
                                  "GPU runs on an older one: its first kernel fails with \"no kernel image is available "
                                  "for execution on the device\"."
                            : "Its binary holds SASS for " + join(archs, ", ") + " only (the list shows no PTX): unless "
                                  "its build also embedded PTX, its first kernel fails with \"no kernel image is "
                                  "available for execution on the device\".";
      std::vector<std::string> wanted;
      for (const auto& a : archs)
        if (std::string c = arch_to_cc(a); !c.empty() && std::find(wanted.begin(), wanted.end(), c) == wanted.end()) wanted.push_back(c);
      wanted.push_back(cc);
      f.fixes.push_back({1, "Rebuild " + ext + " from its source for this GPU too, as it was installed (its build reads "
                                "TORCH_CUDA_ARCH_LIST)",
                         {"export TORCH_CUDA_ARCH_LIST=" + shell_quote(join(wanted, " "))},
                         "then run the same install of " + ext + " again in this shell"});
      out.push_back(std::move(f));
    }
  }
}

/// Triton's bundled ptxas not knowing the GPU's architecture ("Value 'sm_121a' is not defined for option
/// 'gpu-name'"): every Triton kernel (torch.compile's too) fails to compile on this GPU. Triton takes another
/// ptxas from TRITON_PTXAS_PATH (triton/knobs.py), so a CUDA toolkit that knows the GPU is the way out.
void triton_ptxas_refusal(const DoctorContext& ctx, const std::string& said, std::vector<Finding>& out) {
  const std::string shown = said.substr(inventory::kTritonPtxasRefusal.size());
  std::string arch = inventory::paste_text::after(shown, "Value '");
  arch = arch.substr(0, arch.find('\''));
  Finding f;
  f.id = "ext.arch_not_built";
  f.status = Status::kFail;
  f.title = "Triton's bundled ptxas does not know this GPU's architecture" + (arch.empty() ? std::string() : " (" + arch + ")");
  f.evidence = {{"the error", shown, "the pasted report"}};
  for (const char* name : {"triton", "pytorch-triton"})  // PyPI's, or the one torch's nightlies pin
    if (const auto it = ctx.python->packages.find(name); it != ctx.python->packages.end()) {
      f.evidence.push_back({name, it->second, ctx.python_label()});
      break;
    }
  f.explanation = "Triton compiles each kernel at run time with the ptxas it ships; that ptxas predates this GPU, so "
                  "no Triton kernel (torch.compile's included) builds for it.";
  f.add_fix("Point Triton at the ptxas of a CUDA toolkit that knows this GPU (TRITON_PTXAS_PATH), or install a "
            "Triton release whose bundled CUDA does; check the toolkit's ptxas lists the architecture first",
            {"/usr/local/cuda/bin/ptxas --help | grep -o " + (arch.empty() ? std::string("sm_[0-9]*") : shell_quote(arch)),
             "export TRITON_PTXAS_PATH=/usr/local/cuda/bin/ptxas"},
            "needs a CUDA toolkit at /usr/local/cuda new enough for the GPU");
  out.push_back(std::move(f));
}

/// torch's version stated without its build (a typed "PyTorch Version: 2.5.1"): when no CUDA build of that release
/// has SASS for the GPU (data/compat/torch.json's arch lists; PTX of an older major does not count, as torch's own
/// check does not), whichever was installed cannot run on it.
void check_no_build_of_release(const DoctorContext& ctx, std::vector<Finding>& out) {
  const auto& py = *ctx.python;
  const knowledge::TorchRelease* release = py.torch_version.empty() ? nullptr : ctx.kb.torch_release(py.torch_version);
  if (!release || release->builds.empty()) return;
  std::vector<std::string> all;  // every build's list, for the evidence
  for (const auto& b : release->builds) {
    if (b.archs.empty()) return;  // a build whose list is not recorded might have it
    all.push_back(b.tag + ": " + join(b.archs, " "));
  }
  for (const auto& g : ctx.inv.gpus) {
    const std::string cc = cc_of(g);
    if (g.cc_major == 0) continue;
    const bool some_build_runs = std::any_of(release->builds.begin(), release->builds.end(), [&](const knowledge::TorchBuild& b) {
      return arch_coverage(cc, b.archs) == Coverage::kSass;
    });
    if (some_build_runs) continue;
    const std::string sm = sm_of(g);
    Finding f;
    f.id = "gpu.arch_not_in_torch";
    f.status = Status::kFail;
    f.title = "No CUDA build of torch " + release->version + " has kernels for " + g.name + " (" + sm + ")";
    f.evidence = {{"GPU " + std::to_string(g.index), g.name + " (compute capability " + cc + ")", g.source},
                  {"torch", py.torch_version + " (its CUDA build not stated)", ctx.python_label()},
                  {"torch " + release->version + "'s builds", join(all, "; "), "data/compat/torch.json"}};
    f.explanation = "Whichever of torch " + release->version + "'s wheels is installed, none carries SASS for " + sm +
                    ": torch warns \"" + g.name + " with CUDA capability " + sm + " is not compatible with the current "
                    "PyTorch installation\" and kernels fail with \"no kernel image is available\".";
    add_arch_fixes(ctx, cc, ctx.kb.arch(cc), f);
    out.push_back(std::move(f));
    return;
  }
}

/// A compiled library refusing the GPU at run time, pasted with the report. CUDA's "no kernel image" names no
/// library: beside a torch whose arch list holds SASS for the GPU, torch's own kernels run, so an extension's
/// lack them; with torch's list unknown (or without the GPU) the error is torch's as likely, and nothing is
/// said. A library's own check of the architecture (FlashAttention's) is that library's, whatever torch.
void check_kernel_refusal(const DoctorContext& ctx, const std::vector<std::string>& torch_targets, std::vector<Finding>& out) {
  const std::string& said = ctx.python->kernel_refusal;
  if (said.empty()) return;
  const inventory::Gpu* gpu = nullptr;
  for (const auto& g : ctx.inv.gpus)
    if (g.cc_major != 0) {
      gpu = &g;
      break;
    }
  if (starts_with(said, inventory::kTritonPtxasRefusal)) return triton_ptxas_refusal(ctx, said, out);
  const bool ggml = starts_with(said, inventory::kGgmlKernelRefusal);
  const std::string shown = ggml ? said.substr(inventory::kGgmlKernelRefusal.size()) : said;  // as pasted
  if (!gpu && inventory::is_library_arch_check(shown)) {
    // The library checked the GPU itself, so its words stand though the paste does not name the GPU.
    Finding f;
    f.id = "ext.arch_not_built";
    f.status = Status::kFail;
    f.title = std::string(ggml ? "ggml's CUDA backend (llama.cpp, ollama)" : "A compiled library") +
              " refuses this GPU's architecture: " + shown;
    f.evidence = {{"the error", shown, "the pasted report"}};
    f.explanation = "The library checks the GPU's architecture itself and refuses this one: its kernels were not "
                    "built for it" + std::string(ggml ? " (ggml's CMAKE_CUDA_ARCHITECTURES leave it out)."
                                                      : " (FlashAttention 2 needs Ampere, sm_80, or newer).");
    if (ggml)
      f.add_fix("Build llama.cpp for the GPU of the machine it runs on, in its checkout there",
                {"cmake -B build -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=native", "cmake --build build --config Release"},
                "needs a CUDA toolkit that still supports that GPU, and CMake 3.24 or newer for `native`");
    else
      f.add_fix("Use the library's fallback for this GPU (PyTorch's SDPA attention in place of FlashAttention 2), or "
                "build it from source for this GPU where the library supports it; read the GPU's compute capability "
                "first",
                {"nvidia-smi --query-gpu=name,compute_cap --format=csv"});
    out.push_back(std::move(f));
    return;
  }
  if (!gpu) return;
  const std::string cc = cc_of(*gpu), sm = sm_of(*gpu);
  const bool library_check = ggml || inventory::is_library_arch_check(said);
  const bool torch_covers = !torch_targets.empty() && arch_coverage(cc, torch_targets) == Coverage::kSass;
  if (!library_check && !torch_covers) return;
  Finding f;
  f.id = "ext.arch_not_built";
  f.status = Status::kFail;
  f.title = "A compiled extension has no kernels for " + gpu->name + " (" + sm + ")" +
            (torch_covers ? ", though torch has" : "");
  f.evidence = {{"GPU " + std::to_string(gpu->index), gpu->name + " (compute capability " + cc + ")", gpu->source},
                {"the error", shown, "the pasted report"}};
  if (torch_covers) f.evidence.push_back({"torch arch list", join(torch_targets, " "), "torch " + ctx.python->torch_version});
  if (ggml) {
    f.title = "ggml's CUDA backend (llama.cpp, ollama) has no kernels for " + gpu->name + " (" + sm + ")";
    f.explanation = "The error comes from ggml's own source (ggml-cuda.cu): the binary was built with "
                    "CMAKE_CUDA_ARCHITECTURES that leave out " + sm + ", so its kernels do not load on this GPU.";
    f.add_fix("Use a build whose CUDA architectures include " + sm + " (the project's release binaries list them), "
              "or build llama.cpp for this GPU, in its checkout",
              {"cmake -B build -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=" + std::to_string(gpu->cc_major) +
                   std::to_string(gpu->cc_minor),
               "cmake --build build --config Release"},
              "needs a CUDA toolkit that still supports " + sm);
    out.push_back(std::move(f));
    return;
  }
  f.explanation = library_check
                      ? "The library checks the GPU's architecture itself and refuses this one: its kernels were not "
                        "built for " + sm + " (FlashAttention 2 needs Ampere, sm_80, or newer)."
                      : "torch's own kernels exist for " + sm + ", so the kernel that has no image is an extension's "
                        "(the traceback's frame names it): it was built without " + sm + ".";
  f.add_fix("Install a build of that extension with " + sm + " kernels, or build it from source for this GPU",
            {"export TORCH_CUDA_ARCH_LIST=" + shell_quote(cc)},
            "then reinstall the extension from source in this shell; a library whose kernels need a newer GPU "
            "(FlashAttention 2 before Ampere) has no such build: use its fallback (PyTorch's SDPA attention)");
  out.push_back(std::move(f));
}

}  // namespace

void check_gpu_arch(const DoctorContext& ctx, std::vector<Finding>& out) {
  check_arch_list_env(ctx, out);
  // A library's own refusal of the GPU is judged without the GPU's name (check_kernel_refusal).
  if (ctx.python && ctx.inv.gpus.empty()) return check_kernel_refusal(ctx, {}, out);
  if (!ctx.python) return;
  check_extension_archs(ctx, out);
  const std::string torch_name =
      ctx.python->torch_version.empty() ? std::string("the installed torch") : "torch " + ctx.python->torch_version;
  if (ctx.python->torch_arch_list.empty() && !ctx.python->torch_gpu_refusal.empty())
    return refused_by_torch_warning(ctx, torch_name, out);
  // torch's own arch list (only a CUDA build has one) is enough even where its version was not stated, as in
  // a pasted "is not compatible with the current PyTorch installation" warning.
  if (ctx.python->torch_arch_list.empty() && (!ctx.python->torch_installed || ctx.torch_cuda().empty())) {
    check_no_build_of_release(ctx, out);
    return check_kernel_refusal(ctx, {}, out);
  }
  std::vector<std::string> targets = ctx.python->torch_arch_list;
  std::string list_source = ctx.python_from_paste() ? std::string("pasted: the architectures torch states it was built for")
                                   : ctx.python_label() + ": torch.cuda.get_arch_list()";
  if (targets.empty()) {
    if (const knowledge::TorchBuild* b = ctx.kb.torch_build(ctx.python->torch_version, ctx.torch_cuda())) targets = b->archs;
    list_source = "data/compat/torch.json (arch list of the " + ctx.python->torch_version + " wheel)";
  }
  check_kernel_refusal(ctx, targets, out);
  if (targets.empty()) return check_cuda_cannot_build(ctx, torch_name, out);
  std::set<std::string> seen;
  for (const auto& g : ctx.inv.gpus) {
    const std::string cc = cc_of(g);
    if (g.cc_major == 0 || !seen.insert(cc).second) continue;
    Coverage cov = arch_coverage(cc, targets);
    if (cov == Coverage::kSass) continue;
    const std::string sm = sm_of(g);
    Finding f;
    f.evidence = {{"GPU " + std::to_string(g.index), g.name + " (compute capability " + cc + ")", g.source},
                  {"torch arch list", join(targets, " "), list_source},
                  {"torch", ctx.python->torch_version.empty() ? "version not stated" : ctx.python->torch_version,
                   ctx.python->torch_path}};
    // PTX of an older major is no rescue when torch's CUDA predates the GPU: its bundled cuBLAS and cuDNN
    // have no code for it, and torch's own check (_check_cubins, torch/cuda/__init__.py) counts only SASS of
    // the GPU's major, so torch prints "not compatible". A pasted warning without torch's CUDA is that check.
    const std::optional<knowledge::ArchInfo> arch = ctx.kb.arch(cc);
    const std::string torch_cuda = ctx.torch_cuda();
    const bool cuda_predates_gpu =
        arch && !arch->first_cuda.empty() &&
        (torch_cuda.empty() ? ctx.python_from_paste() && !ctx.python->torch_arch_list.empty()
                            : knowledge::compare_versions(torch_cuda, arch->first_cuda) < 0);
    if (cov == Coverage::kPtxOnly && cuda_predates_gpu) {
      f.id = "gpu.arch_not_in_torch";
      f.status = Status::kFail;
      f.title = torch_name + " does not support " + g.name + " (" + sm + "): its CUDA predates the GPU";
      f.explanation = "Only PTX of an older architecture is in the wheel, and the CUDA " +
                      (torch_cuda.empty() ? std::string("it was built with") : torch_cuda) +
                      " libraries it bundles (cuBLAS, cuDNN) were released before " + sm + " (CUDA " +
                      arch->first_cuda + "): torch warns \"" + g.name + " with CUDA capability " + sm +
                      " is not compatible with the current PyTorch installation\", and extensions cannot be "
                      "built for " + sm + " with that CUDA.";
    } else if (cov == Coverage::kNone) {
      f.id = "gpu.arch_not_in_torch";
      f.status = Status::kFail;
      f.title = torch_name + " has no kernels for " + g.name + " (" + sm + ")";
      f.explanation = "Neither SASS for " + sm + " nor PTX for an older architecture is in the wheel: torch warns \"" +
                      g.name + " with CUDA capability " + sm +
                      " is not compatible with the current PyTorch installation\" and the first kernel fails with "
                      "\"CUDA error: no kernel image is available for execution on the device\".";
    } else {
      f.id = "gpu.arch_ptx_only";
      f.status = Status::kWarn;
      f.title = torch_name + " runs on " + g.name + " (" + sm + ") only through PTX JIT";
      f.explanation = "No SASS for " + sm + ": the driver JIT-compiles torch's PTX at first use (minutes; cached "
                      "in ~/.nv/ComputeCache) and needs a driver at least as new as torch's CUDA.";
    }
    add_arch_fixes(ctx, cc, arch, f);
    out.push_back(std::move(f));
  }
}

}  // namespace gpucheck::doctor
