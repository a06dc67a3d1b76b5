// Installed extension packages vs the constraints their builds imply (data/compat/extensions.json).
#include <set>

#include "checks/doctor/arch_coverage.h"
#include "checks/doctor/fix_commands.h"
#include "checks/doctor/rules.h"
#include "knowledge/version.h"
#include "core/text.h"

namespace gpucheck::compat {
namespace {

/// flash-attn wheels carry "+cu122torch2.3cxx11abiFALSE" in their version; extract torch X.Y and the ABI.
bool parse_build_tag(const std::string& local, std::string& torch_mm, std::string& abi) {
  auto t = local.find("torch");
  auto a = local.find("cxx11abi");
  if (t == std::string::npos || a == std::string::npos || a < t) return false;
  torch_mm = local.substr(t + 5, a - t - 5);
  abi = local.substr(a + 8);
  return !torch_mm.empty() && (abi == "TRUE" || abi == "FALSE");
}

std::string import_error_for(const inventory::PythonEnv& py, const std::string& package) {
  std::string module = package;
  for (auto& c : module)
    if (c == '-') c = '_';
  for (const auto& key : {package, module}) {
    auto it = py.import_errors.find(key);
    if (it != py.import_errors.end()) return it->second;
  }
  return "";
}

Fix rebuild_step(const DoctorContext& ctx, const std::string& package, const std::string& version,
                     const ExtensionRelease& rel, int rank) {
  Fix f;
  f.rank = rank;
  std::string pin = package + "==" + version;
  if (package == "xformers" && ctx.python) {
    const TorchBuild* b = ctx.kb.torch_build(ctx.python->torch_version, ctx.torch_cuda());
    f.summary = "Install the xformers wheel built for the installed torch, from torch's own index";
    f.commands = {"pip install -U xformers" + (b ? " --index-url " + b->index_url : std::string())};
    f.cost = "small download; pip may refuse if no xformers matches this exact torch";
    return f;
  }
  f.summary = "Reinstall " + package + " " + version + " against the installed torch " +
              (ctx.python ? ctx.python->torch_version : "");
  f.commands = {"pip install --no-build-isolation --no-cache-dir --force-reinstall --no-deps " + shell_quote(pin)};
  f.cost = rel.wheel_pattern.empty() ? "rebuilds from source with nvcc"
                                     : "downloads the matching prebuilt wheel when one exists, else compiles from "
                                       "source (hours; set MAX_JOBS=4 below 96 GB RAM)";
  return f;
}

}  // namespace

void check_installed_extensions(const DoctorContext& ctx, std::vector<Finding>& out) {
  if (!ctx.python) return;
  const auto& py = *ctx.python;
  for (const auto& [name, version] : py.packages) {
    const ExtensionInfo* ext = ctx.kb.extension(name);
    if (!ext || !Version::parse(version)) continue;
    const ExtensionRelease* rel = ext->release_for(version);
    if (!rel) continue;
    Evidence installed{ext->name, version, ctx.python_label()};
    Evidence torch_ev{"torch", py.torch_installed ? py.torch_version : "not installed", ctx.python_label()};

    if (py.torch_installed && !rel->torch.empty() && !satisfies(py.torch_version, rel->torch)) {
      Finding f;
      f.id = "ext.torch_out_of_range";
      f.status = Status::kFail;
      f.title = ext->name + " " + version + " supports torch " + rel->torch + ", installed is " + py.torch_version;
      f.evidence = {installed, torch_ev, {"supported torch", rel->torch, "data/compat/extensions.json"}};
      f.explanation = ext->name + " " + rel->versions + " is built and tested against torch " + rel->torch + ".";
      f.fixes.push_back(rebuild_step(ctx, ext->name, version, *rel, 1));
      f.references.push_back(rel->source);
      out.push_back(std::move(f));
    }

    std::string tag_torch, tag_abi;
    auto v = Version::parse(version);
    if (py.torch_installed && parse_build_tag(v->local, tag_torch, tag_abi)) {
      std::string have = major_minor(py.torch_version);
      bool torch_differs = compare_versions(tag_torch, have) != 0;
      bool abi_differs = py.torch_cxx11_abi && ((tag_abi == "TRUE") != *py.torch_cxx11_abi);
      if (torch_differs || abi_differs) {
        Finding f;
        f.id = torch_differs ? "ext.built_for_other_torch" : "ext.cxx11_abi_mismatch";
        f.status = Status::kFail;
        f.title = ext->name + " " + version + " was built for torch " + tag_torch + " (cxx11abi " + tag_abi +
                  "), installed is torch " + py.torch_version;
        f.evidence = {installed, torch_ev};
        if (py.torch_cxx11_abi)
          f.evidence.push_back({"torch._C._GLIBCXX_USE_CXX11_ABI", *py.torch_cxx11_abi ? "True" : "False",
                                ctx.python_label()});
        f.explanation = "The extension links libtorch's C++ symbols of the torch it was built for; with another "
                        "torch (or the other C++11 ABI) import fails with \"undefined symbol\".";
        f.fixes.push_back(rebuild_step(ctx, ext->name, version.substr(0, version.find('+')), *rel, 1));
        f.references.push_back(rel->source);
        out.push_back(std::move(f));
      }
    }

    std::string err = import_error_for(py, ext->name);
    if (!err.empty() && err.find("undefined symbol") != std::string::npos) {
      Finding f;
      f.id = "ext.built_for_other_torch";
      f.status = Status::kFail;
      f.title = ext->name + " " + version + " does not import with torch " + py.torch_version + ": undefined symbol";
      f.evidence = {installed, torch_ev, {"import error", err, "import " + ext->name + " in " + py.interpreter}};
      f.explanation = err.find("__cxx11") != std::string::npos
                          ? "The missing symbol uses the C++11 std::string ABI: the extension was built with "
                            "_GLIBCXX_USE_CXX11_ABI=1 but this torch uses the old ABI."
                          : "The extension was compiled against another torch release; libtorch's symbols differ.";
      f.fixes.push_back(rebuild_step(ctx, ext->name, version.substr(0, version.find('+')), *rel, 1));
      f.references.push_back(rel->source);
      out.push_back(std::move(f));
    }

    std::set<std::string> seen;
    for (const auto& g : ctx.inv.gpus) {
      std::string cc = std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor);
      if (g.cc_major == 0 || !seen.insert(cc).second) continue;
      Evidence gpu{"GPU " + std::to_string(g.index), g.name + " (compute capability " + cc + ")", g.source};
      if (!rel->min_cc.empty() && compare_versions(cc, rel->min_cc) < 0) {
        Finding f;
        f.id = "ext.gpu_too_old";
        f.status = Status::kFail;
        f.title = ext->name + " " + version + " needs compute capability >= " + rel->min_cc + "; " + g.name + " is " + cc;
        f.evidence = {installed, gpu, {"minimum compute capability", rel->min_cc, "data/compat/extensions.json"}};
        f.explanation = ext->name == "flash-attn" ? "FlashAttention-2 refuses to run: \"FlashAttention only supports "
                                                    "Ampere GPUs or newer.\""
                                                  : ext->name + " has no kernels for this GPU generation.";
        f.references.push_back(rel->source);
        out.push_back(std::move(f));
        continue;
      }
      if (rel->distribution != "wheel" || rel->archs.empty()) continue;
      std::vector<std::string> targets = rel->archs;
      for (const auto& p : rel->ptx) targets.push_back(p + "+PTX");
      Coverage cov = arch_coverage(cc, targets);
      if (cov == Coverage::kSass) continue;
      Finding f;
      f.id = cov == Coverage::kNone ? "ext.arch_not_built" : "ext.arch_ptx_only";
      f.status = cov == Coverage::kNone ? Status::kFail : Status::kInfo;
      f.title = ext->name + " " + version + " ships " + (cov == Coverage::kNone ? "no kernels" : "only PTX") +
                " for " + g.name + " (sm_" + std::to_string(g.cc_major) + std::to_string(g.cc_minor) + ")";
      f.evidence = {installed, gpu, {"architectures in the wheel", join(targets, " "), rel->source}};
      f.explanation = cov == Coverage::kNone
                          ? "Its kernels fail with \"no kernel image is available for execution on the device\"."
                          : "The driver JIT-compiles the PTX at first use (slow start, cached in ~/.nv/ComputeCache).";
      f.references.push_back(rel->source);
      out.push_back(std::move(f));
    }
  }
}

}  // namespace gpucheck::compat
