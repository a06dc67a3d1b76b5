// GPU compute capability vs the architectures torch was compiled for.
#include <set>

#include "compat/arch_coverage.h"
#include "compat/fix_commands.h"
#include "compat/rules.h"
#include "compat/version.h"
#include "core/text.h"

namespace gpucheck::compat {
namespace {

/// The newest torch build whose SASS covers `cc`, that the Python and the driver can run.
FixStep torch_with_arch(const DoctorContext& ctx, const std::string& cc, int rank, bool& found) {
  found = false;
  std::string python = ctx.python ? ctx.python->version : "";
  std::string driver = ctx.inv.driver.cuda_version ? cuda_int_to_string(ctx.inv.driver.cuda_version) : "";
  const TorchRelease* best_r = nullptr;
  const TorchBuild* best_b = nullptr;
  for (const auto& r : ctx.kb.torch_releases()) {
    if (!python.empty() && !r.supports_python(python)) continue;
    for (const auto& b : r.builds) {
      if (!driver.empty() && compare_versions(b.cuda, driver) > 0) continue;
      if (arch_coverage(cc, b.archs) != Coverage::kSass) continue;
      if (!best_r || compare_versions(r.version, best_r->version) > 0 ||
          (r.version == best_r->version && compare_versions(b.cuda, best_b->cuda) > 0)) {
        best_r = &r;
        best_b = &b;
      }
    }
  }
  if (!best_r) return {};
  found = true;
  return install_torch_step(*best_r, *best_b, ctx.python->torch_version, rank);
}

}  // namespace

void check_gpu_arch(const DoctorContext& ctx, std::vector<Finding>& out) {
  if (!ctx.python || !ctx.python->torch_installed || ctx.torch_cuda().empty() || ctx.inv.gpus.empty()) return;
  std::vector<std::string> targets = ctx.python->torch_arch_list;
  std::string list_source = ctx.python_label() + ": torch.cuda.get_arch_list()";
  if (targets.empty()) {
    if (const TorchBuild* b = ctx.kb.torch_build(ctx.python->torch_version, ctx.torch_cuda())) targets = b->archs;
    list_source = "data/compat/torch.json (arch list of the " + ctx.python->torch_version + " wheel)";
  }
  if (targets.empty()) return;
  std::set<std::string> seen;
  for (const auto& g : ctx.inv.gpus) {
    std::string cc = std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor);
    if (g.cc_major == 0 || !seen.insert(cc).second) continue;
    Coverage cov = arch_coverage(cc, targets);
    if (cov == Coverage::kSass) continue;
    std::string sm = "sm_" + std::to_string(g.cc_major) + std::to_string(g.cc_minor);
    Finding f;
    f.evidence = {{"GPU " + std::to_string(g.index), g.name + " (compute capability " + cc + ")", g.source},
                  {"torch arch list", join(targets, " "), list_source},
                  {"torch", ctx.python->torch_version, ctx.python->torch_path}};
    if (cov == Coverage::kNone) {
      f.id = "gpu.arch_not_in_torch";
      f.severity = Severity::kError;
      f.title = "torch " + ctx.python->torch_version + " has no kernels for " + g.name + " (" + sm + ")";
      f.explanation = "Neither SASS for " + sm + " nor PTX for an older architecture is in the wheel: torch warns \"" +
                      g.name + " with CUDA capability " + sm +
                      " is not compatible with the current PyTorch installation\" and the first kernel fails with "
                      "\"CUDA error: no kernel image is available for execution on the device\".";
    } else {
      f.id = "gpu.arch_ptx_only";
      f.severity = Severity::kWarn;
      f.title = "torch " + ctx.python->torch_version + " runs on " + g.name + " (" + sm + ") only through PTX JIT";
      f.explanation = "No SASS for " + sm + ": the driver JIT-compiles torch's PTX at first use (minutes; cached "
                      "in ~/.nv/ComputeCache) and needs a driver at least as new as torch's CUDA.";
    }
    bool found = false;
    FixStep fix = torch_with_arch(ctx, cc, 1, found);
    if (found) f.fixes.push_back(fix);
    if (auto a = ctx.kb.arch(cc)) {
      f.references.push_back(a->source);
      if (!found)
        f.fixes.push_back({1, "Use a torch built with CUDA >= " + a->first_cuda + " that lists " + sm +
                                  " (none recorded for this Python and driver)",
                           {}, "check https://pytorch.org/get-started/locally/"});
    }
    out.push_back(std::move(f));
  }
}

}  // namespace gpucheck::compat
