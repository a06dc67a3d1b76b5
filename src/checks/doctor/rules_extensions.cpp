// Installed extension packages vs the constraints their builds imply (data/compat/extensions.json).
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>
#include <set>

#include "checks/abi/cxx_abi.h"
#include "checks/abi/diagnosis.h"
#include "checks/doctor/arch_coverage.h"
#include "checks/doctor/extension_linkage.h"
#include "checks/doctor/torch_choice.h"
#include "checks/planner/plan_commands.h"
#include "checks/doctor/fix_commands.h"
#include "checks/doctor/rules.h"
#include "checks/doctor/torch_abi.h"
#include "inventory/paste_formats.h"
#include "knowledge/pep440.h"
#include "knowledge/version.h"
#include "core/text.h"

namespace gpucheck::doctor {
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

std::vector<std::string> first_symbols(const abi::SymbolGroup& g, std::size_t n) {
  std::vector<std::string> out(g.symbols.begin(), g.symbols.begin() + static_cast<long>(std::min(n, g.symbols.size())));
  if (g.symbols.size() > n) out.push_back("... " + std::to_string(g.symbols.size() - n) + " more");
  return out;
}

/// The torch requirement of `name` `version` as PyPI published it (pypi.json: the wheel's METADATA), for an
/// extension whose own metadata is not on this machine (a pasted report). "" when none is recorded; lines
/// with a marker are left out (they hold only on some platforms).
struct PublishedTorchPin {
  std::string specifiers, source;
};
/// A version whose local label names a commit or a build date ("0.0.30+c5c0720c.d20250414", setuptools-scm's
/// "+g1a2b3c4.d20240101") was built from a checkout, against the torch that was installed then: PyPI (which
/// refuses local versions) published no such wheel, so its pins do not describe it. "+cu121" is not such a label.
bool built_from_checkout(const std::string& version) {
  auto v = knowledge::pep440::Version::parse(version);
  if (!v) return false;
  for (const auto& part : split(v->local, '.')) {  // the local label, lower case, '.'-separated
    std::string hex = part.size() > 1 && part[0] == 'g' ? part.substr(1) : part;
    bool commit = hex.size() >= 7 && hex.size() <= 40 && std::all_of(hex.begin(), hex.end(), ::isxdigit) &&
                  std::any_of(hex.begin(), hex.end(), ::isalpha);
    bool date = part.size() == 9 && part[0] == 'd' && std::all_of(part.begin() + 1, part.end(), ::isdigit);
    if (commit || date) return true;
  }
  return false;
}

PublishedTorchPin published_torch_pin(const knowledge::KnowledgeBase& kb, const std::string& name, const std::string& version) {
  if (built_from_checkout(version)) return {};
  const knowledge::PypiPackage* pkg = kb.pypi().package(name);
  const knowledge::PypiRelease* rel = pkg ? pkg->find(version) : nullptr;
  if (!rel) return {};
  for (const auto& line : rel->requires_dist) {
    auto req = knowledge::pep440::Requirement::try_parse(line);
    if (req && req->name == "torch" && req->marker.empty() && req->url.empty() && !req->specifiers.empty()) {
      // "==1.10.0+cu102" (torchvision 0.11.0's wheel): the local label names the torch wheel PyPI's build ran
      // against, not a requirement on where a pasted torch came from (conda's 1.10.0 is the same release).
      std::string pin = req->specifiers.str(), release;
      for (std::size_t i = 0; i < pin.size(); ++i) {
        if (pin[i] != '+') {
          release += pin[i];
          continue;
        }
        while (i + 1 < pin.size() && pin[i + 1] != ',') ++i;
      }
      return {release, rel->source};
    }
  }
  return {};
}

/// ext.torch_out_of_range when the installed torch is outside `specifiers` (">=2.1,<2.2"), which `pin` states
/// (PyPI's metadata, pip's own resolver in the paste); nullopt otherwise. For a pasted report, which has no
/// METADATA to check as pip check does: the pin says the same as python.requirement_conflict would on the
/// machine itself.
std::optional<Finding> torch_pin_broken(const DoctorContext& ctx, const std::string& name, const std::string& version,
                                        const std::string& specifiers, const Evidence& pin, const std::string& reference,
                                        bool stated_by_pip = false) {
  const auto& py = *ctx.python;
  if (!knowledge::Version::parse(py.torch_version)) return std::nullopt;  // a paste may not state it
  if (specifiers.empty() || knowledge::satisfies(py.torch_version, specifiers)) return std::nullopt;
  const bool patch_only = torch_pin_differs_in_patch_only(specifiers, py.torch_version) &&
                          ctx.import_error(name).empty();
  Finding f;
  f.id = "ext.torch_out_of_range";
  f.status = Status::kFail;
  f.title = name + " " + version + " requires torch" + specifiers + ", installed is " + py.torch_version;
  f.evidence = {{name, version, ctx.python_label()}, {"torch", py.torch_version, ctx.python_label()}, pin};
  const bool in_pypi_table = ctx.kb.pypi().package(name) != nullptr;  // its releases' pins are known
  f.explanation = stated_by_pip && !in_pypi_table
                      ? "pip installed it beside a torch it does not accept and said so; code of " + name +
                            " that needs its torch fails at import or at run time."
                      : name + " " + version + "'s wheel is built against that torch and declares it; its compiled "
                        "operators do not load with another (\"unavailable\" in xformers.info, \"operator "
                        "torchvision::nms does not exist\").";
  const auto installed = knowledge::pep440::Version::parse(py.torch_version);
  const auto* torch_releases = ctx.kb.pypi().package("torch");
  const std::string pinned = specifiers.rfind("==", 0) == 0 ? specifiers.substr(2) : "";
  if (installed && installed->is_prerelease()) {
    // Nightlies leave PyPI's tables, and the nightly index keeps only recent dates: no command would last.
    f.add_fix("Install " + name + " and torch of the same nightly (their versions share the date), or both of "
              "one release", {});
  } else if (in_pypi_table) {
    f.fixes.push_back(plan_keeping_torch(ctx, name, "", 1));
  } else if (!pinned.empty() && torch_releases && torch_releases->find(pinned)) {
    // A package the tables do not hold, pinned to one torch release PyPI has: that torch, as pip asked.
    f.add_fix("Install the torch " + name + " " + version + " declares (replaces torch " + py.torch_version + ")",
              pip_install(ctx, shell_quote("torch==" + pinned)),
              "downloads PyPI's default build of torch " + pinned + " and its CUDA libraries; every other "
              "extension built for torch " + py.torch_version + " must then match the new torch");
  } else {
    f.add_fix("Install the release of " + name + " made for torch " + py.torch_version + ", or the torch it "
              "declares (" + specifiers + ")", {});
  }
  if (!reference.empty()) f.references.push_back(reference);
  if (patch_only) mark_patch_only_pin(f);
  return f;
}

/// The torch pin PyPI's release of `name` `version` declares, judged as torch_pin_broken does.
std::optional<Finding> published_pin_broken(const DoctorContext& ctx, const std::string& name, const std::string& version) {
  auto pin = published_torch_pin(ctx.kb, name, version);
  return torch_pin_broken(ctx, name, version, pin.specifiers,
                          {"Requires-Dist", "torch" + pin.specifiers, "data/compat/pypi.json"}, pin.source);
}

/// Whether a finding whose id starts with `id` is about `name` already (each ext.* finding's first evidence is the
/// package).
bool judged_already(const std::vector<Finding>& out, const std::string& name, const std::string& id = "ext.") {
  return std::any_of(out.begin(), out.end(), [&](const Finding& f) {
    return starts_with(f.id, id) && !f.evidence.empty() && f.evidence.front().what == name;
  });
}

/// The torch a wheel's local label says it was built for: "cu128torch2.9.0.post3" -> "2.9", "cu122torch2.1cxx11abitrue"
/// -> "2.1", "torch260.cuda126" -> "2.6" (three digits: X, Y and Z), "cu121.torch2.4.0" -> "2.4"; "" for none.
std::string torch_of_build_tag(const std::string& local) {
  const auto t = local.find("torch");
  if (t == std::string::npos) return "";
  std::string digits;
  for (std::size_t i = t + 5; i < local.size() && (std::isdigit(static_cast<unsigned char>(local[i])) || local[i] == '.'); ++i)
    digits += local[i];
  while (!digits.empty() && digits.back() == '.') digits.pop_back();
  if (digits.find('.') != std::string::npos) {
    const auto parts = split(digits, '.');
    return parts.size() >= 2 && !parts[0].empty() && !parts[1].empty() ? parts[0] + "." + parts[1] : "";
  }
  return digits.size() == 3 ? digits.substr(0, 1) + "." + digits.substr(1, 1) : "";
}

/// The CUDA major a wheel's local label names: "cu128torch2.7.1" -> 12, "cu11torch2.1" -> 11, "cu92" -> 9,
/// "torch260.cuda126" -> 12; 0 for none.
int cuda_major_of_build_tag(const std::string& local) {
  for (auto at = local.find("cu"); at != std::string::npos; at = local.find("cu", at + 1)) {
    std::string digits;
    const std::size_t from = local.compare(at, 4, "cuda") == 0 ? at + 4 : at + 2;
    for (std::size_t i = from; i < local.size() && std::isdigit(static_cast<unsigned char>(local[i])); ++i) digits += local[i];
    if (digits.size() == 3) return std::stoi(digits.substr(0, 2));
    if (digits.size() == 2) return digits[0] == '1' ? std::stoi(digits) : digits[0] - '0';
  }
  return 0;
}

/// A package whose version carries the torch it was built for in its local label (prebuilt wheels of flash-attn,
/// causal-conv1d, SageAttention, exllamav2, ... named "+cu122torch2.3cxx11abiFALSE"), the knowledge base's or not:
/// another torch minor than the installed one, or the other C++11 ABI than PyTorch's wheel of that release, and
/// its compiled module does not load. A source build of torch ("2.1.0a0+4136153") is not the release the wheel
/// was built against either.
void check_torch_build_tags(const DoctorContext& ctx, std::vector<Finding>& out) {
  const auto& py = *ctx.python;
  const auto installed = knowledge::pep440::Version::parse(py.torch_version);
  if (!installed || installed->release.size() < 2) return;
  const std::string have = std::to_string(installed->release[0]) + "." + std::to_string(installed->release[1]);
  for (const auto& [name, version] : py.packages) {
    if (name == "torch") continue;
    const auto v = knowledge::pep440::Version::parse(version);
    if (!v) continue;
    const std::string built_for = torch_of_build_tag(v->local);
    if (built_for.empty()) continue;
    if (judged_already(out, name)) continue;
    const auto abi_at = v->local.find("cxx11abi");
    const std::optional<bool> wheel_new_abi =
        abi_at == std::string::npos ? std::nullopt : std::optional<bool>(v->local.compare(abi_at + 8, 4, "true") == 0);
    const std::optional<bool> torch_new_abi =
        py.torch_cxx11_abi ? py.torch_cxx11_abi : wheel_torch_uses_cxx11_abi(ctx.kb, py.torch_version);
    const bool source_build = installed->is_prerelease() && !installed->local.empty();
    // The same torch minor of another CUDA major ("cu128torch2.7.1" beside torch 2.7.1+cu118): its module links
    // that build's CUDA libraries, which this torch does not carry.
    const int wheel_cuda = cuda_major_of_build_tag(v->local);
    const auto torch_cuda = knowledge::Version::parse(ctx.torch_cuda());
    const bool other_cuda = wheel_cuda > 0 && torch_cuda && torch_cuda->major() != wheel_cuda;
    const bool other_torch = built_for != have || source_build || other_cuda;
    const bool other_abi = !other_torch && wheel_new_abi && torch_new_abi && *wheel_new_abi != *torch_new_abi;
    if (!other_torch && !other_abi) continue;
    // Its import seen failing: the package's or its compiled module's ("causal_conv1d_cuda", "flash_attn_2_cuda").
    std::string module = name, import_error;
    std::replace(module.begin(), module.end(), '-', '_');
    for (const auto& [imported, error] : py.import_errors)
      if (starts_with(imported, module) && import_error.empty()) import_error = error;
    const bool import_fails = !import_error.empty();
    Finding f;
    f.id = other_torch ? "ext.built_for_other_torch" : "ext.cxx11_abi_mismatch";
    // Another torch minor usually breaks the module's link to torch's C++ symbols, not always (flashinfer 0.1.6's
    // torch2.4 wheels ran on torch 2.5 in sglang's own image): at risk until its import is seen failing. The
    // other string ABI breaks every function passing a std::string.
    f.status = other_torch && !import_fails ? Status::kWarn : Status::kFail;
    f.title = source_build ? name + " " + version + " was built for torch " + built_for + "'s release, installed is a build of "
                                 "torch from source, " + py.torch_version
              : other_torch ? name + " " + version + " was built for torch " + built_for +
                                  (other_cuda ? " with CUDA " + std::to_string(wheel_cuda) : std::string()) +
                                  ", installed is torch " + py.torch_version
                          : name + " " + version + " was built with the " + (wheel_new_abi.value_or(false) ? "new" : "old") +
                                " C++11 string ABI; torch " + py.torch_version + " uses the " + (torch_new_abi.value_or(false) ? "new" : "old");
    f.evidence = {{name, version, ctx.python_label()}, {"torch", py.torch_version, ctx.python_label()}};
    if (import_fails)
      f.evidence.push_back({"import error", import_error, ctx.python_from_paste() ? "the pasted report" : ctx.python_label()});
    if (other_abi)
      f.evidence.push_back({"torch's _GLIBCXX_USE_CXX11_ABI", *torch_new_abi ? "True" : "False",
                            py.torch_cxx11_abi ? ctx.python_label() : "data/compat/torch.json (PyTorch's wheel of that build)"});
    f.explanation = other_torch
                        ? "The wheel's version names the torch it was compiled against; its module links that torch's "
                          "C++ symbols, so with " + std::string(source_build                          ? "a source build of torch"
                                                      : built_for == have ? "torch's build for another CUDA major"
                                                                          : "another torch minor") +
                              " its import most often fails with \"undefined symbol\" (on Windows, \"DLL load failed\")."
                        : "The wheel passes std::string across torch's C++ API in the other layout, so import fails "
                          "with \"undefined symbol\" naming a std::__cxx11 (or plain std::string) function of torch.";
    const std::string wanted = other_torch ? "torch" + have + (torch_new_abi ? std::string(" and cxx11abi") + (*torch_new_abi ? "TRUE" : "FALSE") : "")
                                           : "torch" + have + "cxx11abi" + (*torch_new_abi ? "TRUE" : "FALSE");
    if (source_build)
      f.add_fix("Build " + name + " from source against this torch: no prebuilt wheel is made for a source build", {});
    else
      f.add_fix("Install the wheel of " + name + " whose name says " + wanted + " (its release page lists one per torch, "
              "CUDA and ABI), or build it from source against the installed torch", {});
    out.push_back(std::move(f));
  }
}

/// torchvision or torchaudio of another build than torch's, as pip takes them from two indexes
/// ("torch-1.14.0.dev20221205+cu117 ... torchvision-0.15.0.dev20221205+cpu"): a CPU build beside a CUDA torch has
/// no CUDA operators ("Could not run 'torchvision::nms' with arguments from the 'CUDA' backend"); one of another
/// CUDA major stops at import ("compiled with different CUDA major versions").
void check_companion_builds(const DoctorContext& ctx, std::vector<Finding>& out) {
  const auto& py = *ctx.python;
  const auto torch = knowledge::pep440::Version::parse(py.torch_version);
  if (!torch) return;
  // "cpu", or the CUDA major of "cu117" (0 for any other label: ROCm's, NVIDIA's, none).
  auto build_of = [](const std::string& local) -> std::pair<bool, int> {
    if (local == "cpu") return {true, -1};
    return {false, starts_with(local, "cu") ? cuda_major_of_build_tag(local) : 0};
  };
  const auto [torch_cpu, torch_cuda] = build_of(torch->local);
  if (!torch_cpu && torch_cuda == 0) return;
  for (const char* name : {"torchvision", "torchaudio"}) {
    const auto it = py.packages.find(name);
    if (it == py.packages.end()) continue;
    const auto v = knowledge::pep440::Version::parse(it->second);
    if (!v) continue;
    const auto [cpu, cuda] = build_of(v->local);
    if ((!cpu && cuda == 0) || (cpu == torch_cpu && cuda == torch_cuda)) continue;
    if (judged_already(out, name)) continue;
    Finding f;
    f.id = "ext.built_for_other_torch";
    f.status = Status::kFail;
    f.title = std::string(name) + " " + it->second + " is " + (cpu ? "a CPU-only build" : "a CUDA " + std::to_string(cuda) + " build") +
              ", torch " + py.torch_version + " is " + (torch_cpu ? "a CPU-only one" : "a CUDA " + std::to_string(torch_cuda) + " one");
    f.evidence = {{name, it->second, ctx.python_label()}, {"torch", py.torch_version, ctx.python_label()}};
    f.explanation = cpu ? std::string(name) + "'s CPU build has no CUDA operators, so its GPU work fails (\"Could not run "
                          "'torchvision::nms' with arguments from the 'CUDA' backend\")."
                        : std::string(name) + "'s compiled operators link another CUDA build of torch than the installed "
                          "one: its import stops (\"compiled with different CUDA major versions\") or they do not load.";
    // The planner's release for this torch, from PyTorch's index of torch's build; else the way, in words.
    if (Fix keep = plan_keeping_torch(ctx, name, "", 1); !keep.commands.empty() && !torch->is_prerelease())
      f.fixes.push_back(std::move(keep));
    else
      f.add_fix("Install " + std::string(name) + " from the same index as torch, so both are the same build (the "
                "`--index-url` that gave torch " + py.torch_version + ")", {});
    out.push_back(std::move(f));
  }
}

}  // namespace

void check_installed_extensions(const DoctorContext& ctx, std::vector<Finding>& out) {
  if (!ctx.python) return;
  const auto& py = *ctx.python;
  for (const auto& [name, version] : py.packages) {
    const knowledge::ExtensionInfo* ext = ctx.kb.extension(name);
    if (!ext || !knowledge::Version::parse(version)) continue;
    const knowledge::ExtensionRelease* rel = ext->release_for(version);
    if (!rel) continue;
    Evidence installed{ext->name, version, ctx.python_label()};
    Evidence torch_ev{"torch", py.torch_installed ? py.torch_version : "not installed", ctx.python_label()};
    const std::string err = ctx.import_error(ext->name);  // "" when its import is not seen failing

    if (py.torch_installed && !rel->torch.empty() && knowledge::Version::parse(py.torch_version) &&
        !knowledge::satisfies(py.torch_version, rel->torch)) {
      Finding f;
      f.id = "ext.torch_out_of_range";
      // A package that still imports with another torch (torchao: only its C++ ops fail to load) is at risk,
      // not broken, unless its import is seen failing (python.import_failed then says so).
      // torchao's own "Skipping import of cpp extensions" is that very state, not a failed import.
      const bool ops_skipped = err.find(inventory::kTorchaoSkipsOps) != std::string::npos;
      const bool only_ops = rel->imports_with_other_torch && (err.empty() || ops_skipped);
      f.status = only_ops ? Status::kWarn : Status::kFail;
      f.title = ext->name + " " + version + " supports torch " + rel->torch + ", installed is " + py.torch_version;
      f.evidence = {installed, torch_ev, {"supported torch", rel->torch, "data/compat/extensions.json"}};
      if (ops_skipped) f.evidence.push_back({"its warning at import", err, "the pasted report"});
      f.explanation = ext->name + " " + rel->versions + " is built and tested against torch " + rel->torch + ".";
      if (only_ops)
        f.explanation += " `import " + ext->name + "` still works with this torch; its compiled operators do "
                         "not load, so only what uses them fails.";
      f.fixes.push_back(plan_keeping_torch(ctx, ext->name, "", 1));
      f.references.push_back(rel->source);
      out.push_back(std::move(f));
    } else if ((py.torch_installed || !py.torch_version.empty()) && rel->torch.empty() && !py.distribution(name)) {
      // Without its METADATA here (a pasted report), the pin its PyPI release declares says the same as
      // python.requirement_conflict would on the machine itself: xformers 0.0.22.post7 requires torch==2.1.0.
      if (auto f = published_pin_broken(ctx, ext->name, version)) out.push_back(std::move(*f));
    }

    std::string tag_torch, tag_abi;
    auto v = knowledge::Version::parse(version);
    if (py.torch_installed && parse_build_tag(v->local, tag_torch, tag_abi)) {
      std::string have = major_minor(py.torch_version);
      bool torch_differs = knowledge::compare_versions(tag_torch, have) != 0;
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
        f.fixes.push_back(plan_keeping_torch(ctx, ext->name, rel->distribution == "wheel" ? "" : version.substr(0, version.find('+')), 1));
        f.references.push_back(rel->source);
        out.push_back(std::move(f));
      }
    }

    // Its own shared objects against this torch decide (files on this machine); a document from another
    // machine has only the import error's words, and those prove a foreign torch only for a torch symbol.
    ExtensionLinkage link;
    if (const inventory::Distribution* dist = py.distribution(name); dist && py.torch_installed)
      link = extension_linkage(py, *dist, ctx.env("LD_LIBRARY_PATH"), !ctx.env("TORCH_USE_RTLD_GLOBAL").empty());
    Evidence err_ev{"import error", err, "import " + ext->name + " in " + py.interpreter};
    const std::string rebuild_version = rel->distribution == "wheel" ? "" : version.substr(0, version.find('+'));
    if (link.checked) {
      bool torch_done = false;
      std::set<std::string> libs_done;
      for (const auto& mod : link.modules)
        for (const auto& g : mod.groups) {
          const std::string module = std::filesystem::path(mod.path).filename().string();
          if ((g.category == "torch" || g.category == "cxx_abi") && !torch_done) {
            // Torch symbols this torch's libraries do not define: built for another torch build (another
            // release, or the other C++ string ABI, which is another build of torch too).
            torch_done = true;
            bool abi = g.category == "cxx_abi";
            Finding f;
            f.id = "ext.built_for_other_torch";
            f.status = Status::kFail;
            f.title = ext->name + " " + version + " was built for another torch than " + py.torch_version + ": " +
                      module + " needs " + std::to_string(g.symbols.size()) + " torch symbol(s) it does not define" +
                      (abi ? " (other C++ string ABI)" : "");
            f.evidence = {installed, torch_ev, {"unbound in " + mod.path, join(first_symbols(g, 3), ", "), g.cause}};
            if (!err.empty()) f.evidence.push_back(err_ev);
            f.explanation = std::string("The extension links libtorch's C++ symbols of the torch it was built for, and ") +
                            "this torch's libraries do not define them (" + mod.torch_how + ")" +
                            (abi ? ": they differ in _GLIBCXX_USE_CXX11_ABI" : "") +
                            ". Import fails with \"undefined symbol\".";
            f.fixes.push_back(plan_keeping_torch(ctx, ext->name, rebuild_version, 1));
            f.references.push_back(rel->source);
            f.details = {{"object", mod.path}, {"symbols", g.symbols}, {"cxx11_abi_differs", abi}};
            out.push_back(std::move(f));
          } else if (g.category == "not_visible") {
            // "not_visible:<soname>" groups: one finding per library the extension never linked.
            std::string lib = g.cause.substr(0, g.cause.find(','));
            lib = lib.substr(lib.rfind('/') + 1);
            if (!libs_done.insert(lib).second) continue;
            Finding f;
            f.id = "ext.symbol_not_visible";
            f.status = Status::kFail;
            f.title = ext->name + " " + version + "'s " + module + " calls " + lib + ", which it does not link; " +
                      "torch " + py.torch_version + " loads it RTLD_LOCAL";
            f.evidence = {installed, torch_ev, {"unbound in " + mod.path, join(first_symbols(g, 3), ", "), g.cause}};
            if (!err.empty()) f.evidence.push_back(err_ev);
            f.explanation = "It was built against this torch, but its link line lacks " + lib + ": it counts on "
                            "someone having loaded it globally, which `import torch` does not (" + mod.torch_how +
                            "). Rebuilding the same sources changes nothing.";
            for (const auto& r : g.remedy)
              if (!r.commands.empty())
                f.add_fix("Load " + lib + " globally before Python starts (this shell)", r.commands,
                          "affects every program this shell starts");
            f.add_fix("Let torch load its libraries globally (this shell)", {"export TORCH_USE_RTLD_GLOBAL=1"},
                      "affects every torch program this shell starts");
            f.references.push_back(rel->source);
            f.details = {{"object", mod.path}, {"symbols", g.symbols}};
            out.push_back(std::move(f));
          }
        }
    } else if (const std::string sym = abi::undefined_symbol_in(err); !sym.empty() && abi::is_torch_symbol(abi::demangle(sym))) {
      Finding f;
      f.id = "ext.built_for_other_torch";
      f.status = Status::kFail;
      f.title = ext->name + " " + version + " does not import with torch " + py.torch_version +
                ": undefined torch symbol";
      f.evidence = {installed, torch_ev, err_ev};
      if (!link.why_not.empty()) f.evidence.push_back({"shared objects", "not read: " + link.why_not, "RECORD"});
      f.explanation = err.find("__cxx11") != std::string::npos
                          ? "The missing symbol uses the C++11 std::string ABI: the extension was built with "
                            "_GLIBCXX_USE_CXX11_ABI=1 but this torch uses the old ABI."
                          : "The missing symbol is torch's own: the extension was compiled against another torch.";
      f.fixes.push_back(plan_keeping_torch(ctx, ext->name, rebuild_version, 1));
      f.references.push_back(rel->source);
      out.push_back(std::move(f));
    }

    std::set<std::string> seen;
    for (const auto& g : ctx.inv.gpus) {
      std::string cc = std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor);
      if (g.cc_major == 0 || !seen.insert(cc).second) continue;
      Evidence gpu{"GPU " + std::to_string(g.index), g.name + " (compute capability " + cc + ")", g.source};
      if (!rel->min_cc.empty() && knowledge::compare_versions(cc, rel->min_cc) < 0) {
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
  // Packages of a pasted report that the extension table does not know (torchvision, torchaudio): their
  // PyPI release's torch pin. On a live machine their METADATA is there and check_requirements judges it.
  // A torch version the paste states is enough: the pin does not depend on the CUDA it was built with.
  if (!py.torch_installed && py.torch_version.empty()) return;
  for (const auto& [name, version] : py.packages)
    if (name != "torch" && !ctx.kb.extension(name) && !py.distribution(name) && knowledge::Version::parse(version))
      if (auto f = published_pin_broken(ctx, name, version)) out.push_back(std::move(*f));
  // pip's resolver said so in the paste ("torchvision 0.7.0.dev20200610 has requirement
  // torch==1.6.0.dev20200609, but you'll have torch 1.6.0.dev20200610"): a nightly or a package the tables
  // do not hold is judged by pip's own words.
  for (const auto& stated : py.stated_torch_requirements) {
    const std::string& name = stated.first;  // named references: clang's C++17 lambdas cannot capture a binding
    const std::string& required = stated.second;
    const auto version = py.packages.find(name);
    if (judged_already(out, name, "ext.torch_out_of_range") || version == py.packages.end() || required.size() <= 5)
      continue;  // judged from the tables already
    if (auto f = torch_pin_broken(ctx, name, version->second, required.substr(5),
                                  {"pip's resolver", name + " " + version->second + " requires " + required,
                                   "the pasted report"}, "", true))
      out.push_back(std::move(*f));
  }
  check_torch_build_tags(ctx, out);
  check_companion_builds(ctx, out);
}

}  // namespace gpucheck::doctor
