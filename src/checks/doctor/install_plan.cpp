#include "checks/doctor/install_plan.h"

#include <algorithm>

#include "knowledge/version.h"
#include "core/errors.h"
#include "core/text.h"

namespace gpucheck::doctor {
namespace {

bool python_has_wheel(const knowledge::ExtensionRelease& r, const std::string& python_mm) {
  if (r.distribution != "wheel") return false;
  if (r.wheel_pythons.empty() || python_mm.empty()) return true;
  return std::find(r.wheel_pythons.begin(), r.wheel_pythons.end(), python_mm) != r.wheel_pythons.end();
}

/// The newest row of the package (the last whose specifier starts with >=, else the last row).
const knowledge::ExtensionRelease* newest_row(const knowledge::ExtensionInfo& ext) {
  return ext.releases.empty() ? nullptr : &ext.releases.back();
}

std::string toolkit_line(const inventory::Toolkit& t) {
  return major_minor(t.version) + " at " + t.root + (t.nvcc.empty() ? " (no nvcc)" : " (nvcc " + t.nvcc + ")") +
         (t.found_via.empty() ? "" : " via " + join(t.found_via, ", "));
}

}  // namespace

PackageRequest parse_package_request(const std::string& text, const knowledge::KnowledgeBase& kb) {
  std::string t = trim(text);
  PackageRequest req;
  auto eq = t.find("==");
  std::string name = t.substr(0, eq);
  if (eq != std::string::npos) {
    req.version = trim(t.substr(eq + 2));
    if (req.version.empty() || !knowledge::Version::parse(req.version) || req.version.find_first_of("*<>=!~ ,") != std::string::npos)
      throw InputError("--for: bad version in '" + text + "' (use PACKAGE or PACKAGE==VERSION)");
  }
  if (name.find_first_of("<>=!~ ,;[") != std::string::npos || trim(name).empty())
    throw InputError("--for: '" + text + "' is not PACKAGE or PACKAGE==VERSION");
  req.name = platform::normalize_package_name(name);
  if (!kb.extension(req.name)) {
    std::vector<std::string> known;
    for (const auto& e : kb.extensions()) known.push_back(e.name);
    std::string guess = closest_match(req.name, known);
    throw InputError("--for: no knowledge about '" + req.name + "'" +
                     (guess.empty() ? "" : " (did you mean " + guess + "?)") + "; known: " + join(known, ", "));
  }
  return req;
}

InstallPlan plan_install(const DoctorContext& ctx, const PackageRequest& req) {
  const knowledge::ExtensionInfo& ext = *ctx.kb.extension(req.name);
  InstallPlan plan;
  plan.package = ext.name;
  plan.version = req.version;
  std::vector<std::string> toolkits;  // every toolkit found, for the evidence of a missing nvcc
  for (const auto& t : ctx.inv.toolkits) toolkits.push_back(toolkit_line(t));

  const knowledge::ExtensionRelease* rel = req.version.empty() ? newest_row(ext) : ext.release_for(req.version);
  if (!rel) throw InputError("--for: no knowledge about " + ext.name + " " + req.version);
  const auto* py = ctx.python;
  std::string python_mm = py ? major_minor(py->version) : "";
  bool torch = py && py->torch_installed;
  std::string torch_cuda = ctx.torch_cuda();
  const inventory::Toolkit* tk = ctx.build.toolkit;
  bool wheel = python_has_wheel(*rel, python_mm);
  bool source_build = !wheel;
  plan.build = wheel ? "prebuilt wheel" : "source build (" + rel->build + ")";
  Evidence asked{"requested", ext.name + (req.version.empty() ? "" : "==" + req.version), "--for"};
  Evidence torch_ev{"torch", torch ? py->torch_version : "not installed", ctx.python_label()};
  auto add = [&](std::string id, Status status, std::string title, EvidenceList evidence, std::string why) {
    Finding f;
    f.id = std::move(id);
    f.status = status;
    f.title = std::move(title);
    f.evidence = std::move(evidence);
    f.explanation = std::move(why);
    f.references.push_back(rel->source);
    plan.findings.push_back(std::move(f));
  };

  if (rel->distribution == "wheel" && !wheel) {
    add("install.no_wheel_for_python", Status::kInfo,
        "No prebuilt " + ext.name + " wheel for Python " + python_mm + "; pip builds the sdist",
        {asked, {"wheels exist for", join(rel->wheel_pythons, ", "), rel->source}},
        "pip falls back to compiling the source distribution, with everything a source build needs.");
  }
  if (source_build && rel->setup_imports_torch) {
    // Both fail the plain `pip install`; with torch present the fix is one flag, without it a torch first.
    add("install.setup_imports_torch", torch ? Status::kWarn : Status::kFail,
        ext.name + (req.version.empty() ? "" : " " + req.version) +
            "'s setup.py imports torch: `pip install` fails while preparing metadata",
        {asked, torch_ev, {"setup.py", "import torch at the top", rel->source}},
        "pip builds in an isolated environment that has no torch (whether or not torch is installed), so "
        "metadata generation stops with \"ModuleNotFoundError: No module named 'torch'\". Install torch first, "
        "then build with --no-build-isolation so setup.py sees it.");
  }
  if (source_build && rel->needs_nvcc && !tk) {
    add("install.no_nvcc", Status::kFail, "Building " + ext.name + " needs nvcc, and no CUDA toolkit was found",
        {asked, {"toolkits found", toolkits.empty() ? "none" : join(toolkits, "; "), "inventory"}},
        "The build calls nvcc (via CUDA_HOME or PATH); without a toolkit it stops at the first CUDA file.");
  }
  if (source_build && tk && !rel->cuda_min.empty() && knowledge::compare_versions(major_minor(tk->version), rel->cuda_min) < 0) {
    add("install.cuda_too_old", Status::kFail,
        ext.name + " needs nvcc >= " + rel->cuda_min + "; the build would use " + tk->version,
        {asked, {"nvcc", tk->version, tk->root}}, "setup.py checks the nvcc version before compiling.");
  }
  std::string nvcc_mm = tk ? major_minor(tk->version) : "", torch_mm = major_minor(torch_cuda);
  if (source_build && rel->needs_nvcc && tk && torch && !torch_mm.empty() && nvcc_mm != torch_mm &&
      (rel->build == "torch_cpp_extension" || rel->build == "jit_ops")) {
    auto rule = ctx.kb.cuda_check_rule(py->torch_version);
    bool major = knowledge::Version::parse(nvcc_mm)->major() != knowledge::Version::parse(torch_mm)->major();
    bool mismatch_fatal = major || rel->strict_minor;
    std::string text = rule ? rule->text : "";
    for (auto [k, v] : {std::pair<std::string, std::string>{"{nvcc}", nvcc_mm}, {"{torch_cuda}", torch_mm}})
      for (auto p = text.find(k); p != std::string::npos; p = text.find(k)) text.replace(p, k.size(), v);
    add(major ? "install.nvcc_torch_major_mismatch" : "install.nvcc_torch_minor_mismatch",
        mismatch_fatal ? Status::kFail : Status::kWarn,
        "Building " + ext.name + " would compile with nvcc " + nvcc_mm + " against torch " + py->torch_version +
            " (CUDA " + torch_mm + ")",
        {asked, torch_ev, {"torch.version.cuda", torch_cuda, ctx.python_label()},
         {"nvcc", tk->version, tk->root + " (" + ctx.build.reason + ")"}},
        major ? "torch.utils.cpp_extension stops the build: " + text
              : (rel->strict_minor ? ext.name + " requires nvcc major.minor to equal torch.version.cuda."
                                   : "torch only warns about a minor mismatch."));
  }
  // The architectures the build compiles: a CMake build's fixed list; for torch's extension builder
  // TORCH_CUDA_ARCH_LIST, else the visible GPUs, else the package's own default list.
  std::string arch_list_fix;  // TORCH_CUDA_ARCH_LIST value that this nvcc can build, when one helps
  std::vector<std::string> archs;
  std::string arch_origin;
  if (rel->build == "cmake") {
    archs = rel->archs;
    arch_origin = "architectures in its CMake build";
  } else if (rel->build == "torch_cpp_extension") {
    if (ctx.has_env("TORCH_CUDA_ARCH_LIST")) {
      for (auto a : split(ctx.env("TORCH_CUDA_ARCH_LIST"), ' '))
        for (auto b : split(a, ';'))
          if (!trim(b).empty()) archs.push_back(trim(b));
      arch_origin = "TORCH_CUDA_ARCH_LIST";
    } else if (!ctx.inv.gpus.empty()) {
      for (const auto& g : ctx.inv.gpus) {
        std::string cc = std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor);
        if (std::find(archs.begin(), archs.end(), cc) == archs.end()) archs.push_back(cc);
      }
      arch_origin = "visible GPUs (torch builds for them when TORCH_CUDA_ARCH_LIST is unset)";
    } else {
      archs = rel->archs;
      arch_origin = "the package's default TORCH_CUDA_ARCH_LIST (no GPU visible)";
    }
  }
  if (source_build && tk && !archs.empty()) {
    std::vector<std::string> bad, good;
    for (const auto& a : archs) {
      std::string cc = a.substr(0, a.find('+'));
      (ctx.kb.cuda_can_build(tk->version, cc) ? good : bad).push_back(a);
    }
    if (!bad.empty()) {
      std::string cc = bad.front().substr(0, bad.front().find('+'));
      cc.erase(std::remove(cc.begin(), cc.end(), '.'), cc.end());
      std::string why = "nvcc stops with \"nvcc fatal   : Unsupported gpu architecture 'compute_" + cc + "'\".";
      if (rel->build == "torch_cpp_extension" && !good.empty()) {
        std::string last = good.back();
        if (last.find("+PTX") == std::string::npos) good.back() = last + "+PTX";
        arch_list_fix = join(good, " ");
        why += " Restricting TORCH_CUDA_ARCH_LIST to \"" + arch_list_fix + "\" avoids it (SASS for those, PTX for newer GPUs).";
      }
      add("install.arch_unbuildable", Status::kFail,
          ext.name + " would compile architectures that nvcc " + nvcc_mm + " cannot build (" + join(bad, ", ") + ")",
          {asked, {arch_origin, join(archs, " "), rel->build == "cmake" ? rel->source : "environment / inventory"},
           {"nvcc", tk->version, tk->root}},
          why);
    }
  }
  if (torch && !rel->torch.empty() && !knowledge::satisfies(py->torch_version, rel->torch)) {
    add("install.torch_out_of_range", Status::kFail,
        ext.name + " " + rel->versions + " needs torch " + rel->torch + "; installed is " + py->torch_version,
        {asked, torch_ev}, "Build or import fails against an unsupported torch.");
  }
  if (torch && rel->needs_rtld_global(py->torch_version) &&
      ctx.env("TORCH_USE_RTLD_GLOBAL").empty()) {  // torch takes any non-empty value
    add("install.import_needs_rtld_global", Status::kWarn,
        ext.name + " " + rel->versions + " installs with torch " + py->torch_version +
            " but imports only with TORCH_USE_RTLD_GLOBAL=1",
        {asked, torch_ev, {"imports need RTLD_GLOBAL with torch", rel->rtld_global_torch, rel->rtld_global_source}},
        rel->rtld_global_why);
    plan.findings.back().references.push_back(rel->rtld_global_source);
  }
  std::vector<std::string> seen_cc;
  for (const auto& g : ctx.inv.gpus) {
    std::string cc = std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor);
    if (rel->min_cc.empty() || knowledge::compare_versions(cc, rel->min_cc) >= 0 ||
        std::find(seen_cc.begin(), seen_cc.end(), cc) != seen_cc.end())
      continue;
    seen_cc.push_back(cc);
    add("install.gpu_too_old", Status::kFail,
        ext.name + " needs compute capability >= " + rel->min_cc + "; " + g.name + " is " + cc,
        {asked, {"GPU " + std::to_string(g.index), g.name + " (" + cc + ")", g.source}},
        "It installs but refuses to run on this GPU.");
  }

  bool errors = std::any_of(plan.findings.begin(), plan.findings.end(),
                            [](const Finding& f) { return f.status == Status::kFail; });
  plan.verdict = errors ? PlanVerdict::kInstallsByPath : PlanVerdict::kInstalls;  // the planner says kNoPath
  return plan;
}

const char* to_string(PlanVerdict v) {
  switch (v) {
    case PlanVerdict::kInstalls: return "installs";
    case PlanVerdict::kInstallsByPath: return "installs_by_path";
    case PlanVerdict::kNoPath: return "no_path";
  }
  return "no_path";
}

std::optional<PlanVerdict> parse_plan_verdict(const std::string& name) {
  for (auto v : {PlanVerdict::kInstalls, PlanVerdict::kInstallsByPath, PlanVerdict::kNoPath})
    if (name == to_string(v)) return v;
  return std::nullopt;
}

const char* verdict_text(PlanVerdict v) {
  switch (v) {
    case PlanVerdict::kInstalls: return "installs";
    case PlanVerdict::kInstallsByPath: return "fails as asked; installs by a path below";
    case PlanVerdict::kNoPath: return "no known path on this machine";
  }
  return "no known path on this machine";
}

std::string prebuilt_instead(const DoctorContext& ctx, const knowledge::ExtensionInfo& ext, const std::string& version) {
  const knowledge::ExtensionRelease* asked = version.empty() ? newest_row(ext) : ext.release_for(version);
  const std::string python_mm = ctx.python ? major_minor(ctx.python->version) : "";
  if (!asked || python_has_wheel(*asked, python_mm)) return "";
  for (auto it = ext.releases.rbegin(); it != ext.releases.rend(); ++it)
    if (!it->recommended.empty() && python_has_wheel(*it, python_mm)) return it->recommended;
  return "";
}

}  // namespace gpucheck::doctor
