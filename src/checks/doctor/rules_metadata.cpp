// What the installed metadata says about the judged environment: Requires-Dist as `pip check` reads it,
// files two wheels both claim (RECORD), torch against the numpy C ABI, GPU packages that do not import.
#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>

#include "checks/abi/cxx_abi.h"
#include "checks/abi/diagnosis.h"
#include "checks/doctor/fix_commands.h"
#include "checks/doctor/rules.h"
#include "checks/doctor/torch_abi.h"
#include "checks/doctor/torch_choice.h"
#include "core/text.h"
#include "inventory/paste_formats.h"
#include "knowledge/pep440.h"
#include "platform/root_fs.h"

namespace gpucheck::doctor {
namespace {

std::string pip_of(const inventory::PythonEnv& py) {
  return shell_quote(py.executable.empty() ? py.interpreter : py.executable) + " -m pip";
}

bool already_reported(const std::vector<Finding>& out, const std::string& text) {
  for (const auto& f : out)
    for (const auto& e : f.evidence)
      if (e.value == text) return true;
  return false;
}

/// The numpy release the planner pins next to the installed torch when that torch predates the numpy 2 ABI
/// (data/compat/pypi.json: the newest 1.x with a wheel for this Python); "" when it pins none.
std::string numpy_pin_for_installed_torch(const DoctorContext& ctx) {
  const auto& py = *ctx.python;
  if (!py.torch_installed || py.torch_version.empty()) return "";
  try {
    planner::Ask keep{knowledge::pep440::Requirement::parse("torch==" + py.torch_version.substr(0, py.torch_version.find('+'))),
                      "installed torch", false};
    for (const auto& plan : planner::resolve(ctx.kb, planner_machine(ctx), {keep}, 1).plans)
      for (const auto& [name, version] : plan.abi_pins)
        if (plan.torch.installed && name == "numpy") return version;
  } catch (const std::exception&) {
  }
  return "";
}

/// For "nvidia-nccl-cu11": the installed "nvidia-nccl-cu12" (same library, another CUDA major), else "".
std::string other_cuda_build_installed(const inventory::PythonEnv& py, const std::string& name) {
  auto cu = name.rfind("-cu");
  if (!starts_with(name, "nvidia-") || cu == std::string::npos) return "";
  const std::string stem = name.substr(0, cu + 3);
  for (const auto& d : py.distributions)
    if (d.name != name && starts_with(d.name, stem) && d.name.find('-', stem.size()) == std::string::npos) return d.name;
  return "";
}

/// The distribution an import name belongs to, where the two differ for a package such rules meet
/// (Pillow is imported as PIL: https://pillow.readthedocs.io/en/stable/installation/basic-installation.html);
/// else the import name itself, normalized as a distribution name.
std::string distribution_of_module(const std::string& module) {
  static const std::map<std::string, std::string> known = {{"PIL", "pillow"}, {"yaml", "pyyaml"}};
  if (auto it = known.find(module); it != known.end()) return it->second;
  return knowledge::pep440::normalize_name(module);
}

/// True when `error` is "No module named 'X'" (the top-level module of X) and X is what one of `missing`
/// (distribution names) installs: the import fails because that dependency is absent.
bool missing_module_is_one_of(const std::string& error, const std::vector<std::string>& missing) {
  const std::string key = "No module named '";
  auto p = error.find(key);
  if (p == std::string::npos) return false;
  auto e = error.find('\'', p + key.size());
  if (e == std::string::npos) return false;
  std::string module = error.substr(p + key.size(), e - p - key.size());
  module = module.substr(0, module.find('.'));
  const std::string dist = distribution_of_module(module);
  return std::find(missing.begin(), missing.end(), dist) != missing.end();
}

}  // namespace

void check_requirements(const DoctorContext& ctx, std::vector<Finding>& out) {
  if (!ctx.python || ctx.python->distributions.empty()) return;
  const auto& py = *ctx.python;
  // pip check evaluates markers for the running interpreter with no extra requested.
  const auto env = knowledge::pep440::MarkerEnv::linux_cpython(py.version);
  // By name, built once: a lookup per Requires-Dist line scanned every distribution, which took 29 s for
  // 32,000 distributions and never ended for 550,000 (reliability-3 N4). The first of a name wins, as before.
  std::unordered_map<std::string, const inventory::Distribution*> by_name;
  by_name.reserve(py.distributions.size());
  for (const auto& d : py.distributions) by_name.emplace(d.name, &d);
  std::optional<std::string> numpy_pin;  // the planner runs once, not once per distribution missing numpy
  for (const auto& d : py.distributions) {
    std::vector<std::pair<knowledge::pep440::Requirement, std::string>> missing;  // with the line as written
    for (const auto& line : d.requires_dist) {
      // A line packaging cannot read names no requirement that could be checked: skipped.
      auto req = knowledge::pep440::Requirement::try_parse(line);
      if (!req || !req->applies(env)) continue;
      auto found = by_name.find(req->name);
      const inventory::Distribution* have = found == by_name.end() ? nullptr : found->second;
      if (!have) {
        missing.emplace_back(*req, line);
        continue;
      }
      if (req->specifiers.empty() || req->specifiers.contains(have->version, true)) continue;
      // A package pinned to torch X.Y.0 beside torch X.Y.Z whose import is not seen failing: at risk, not broken.
      const bool patch_only = req->name == "torch" &&
                              torch_pin_differs_in_patch_only(req->specifiers.str(), have->version) &&
                              ctx.import_error(d.name).empty();
      Finding f;
      f.id = "python.requirement_conflict";
      f.status = Status::kFail;
      // pip check's own words: "torchvision 0.17.0 has requirement torch==2.2.0, but you have torch 2.1.2."
      f.title = d.name + " " + d.version + " has requirement " + req->name + req->specifiers.str() +
                ", but you have " + req->name + " " + have->version;
      f.evidence = {{"Requires-Dist", line, d.location + "/METADATA"}, {req->name, have->version, have->location}};
      f.explanation = "pip installs each distribution's Requires-Dist; this one was installed without it "
                      "(--no-deps, a later install replacing it, or another installer), and `pip check` reports "
                      "the same conflict. Code of " + d.name + " may fail at import or at run time.";
      if (patch_only) mark_patch_only_pin(f);
      // A package pinned to another torch (xformers, torchvision, torchaudio): the release of it that was made
      // for the installed torch, from the planner, keeps torch; pip's own answer would replace torch.
      if (req->name == "torch" && ctx.python->torch_installed) {
        Fix keep = plan_keeping_torch(ctx, d.name, "", 1);
        if (!keep.commands.empty()) f.fixes.push_back(std::move(keep));
      }
      // Otherwise the release of the required package that the requirer declares (triton==3.1.0 for torch
      // 2.5.1): a fix that changes something, never a --dry-run that changes nothing.
      if (req->name != "torch")
        f.add_fix("Install the " + req->name + " that " + d.name + " " + d.version + " declares",
                  pip_install(ctx, shell_quote(req->name + req->specifiers.str())),
                  "replaces " + req->name + " " + have->version + "; a package that needs that " + req->name +
                      " would then report its own conflict");
      else if (f.fixes.empty())
        f.add_fix("Install the torch " + d.name + " " + d.version + " declares (replaces torch " + have->version + ")",
                  pip_install(ctx, shell_quote(d.name + "==" + d.version) + " " +
                                       shell_quote(req->name + req->specifiers.str())),
                  "downloads torch and its CUDA libraries; every other extension built for torch " + have->version +
                      " must then match the new torch");
      f.details = {{"distribution", d.name}, {"version", d.version}, {"requires", req->name},
                   {"specifier", req->specifiers.str()}, {"installed", have->version}};
      out.push_back(std::move(f));
    }
    if (missing.empty()) continue;
    // One finding per distribution: pip check prints one line for each missing name.
    Finding f;
    f.id = "python.requirement_missing";
    f.status = Status::kWarn;
    std::vector<std::string> names, specs, clashing;
    for (const auto& [req, line] : missing) {
      names.push_back(req.name);
      // nvidia-nccl-cu11 beside an installed nvidia-nccl-cu12: both wheels write the same files
      // (nvidia/nccl/lib/libnccl.so.2), so installing it re-creates python.file_overwritten. One plan over
      // all findings: leave it out of the command.
      if (const std::string other = other_cuda_build_installed(py, req.name); !other.empty()) {
        clashing.push_back(req.name + " (it would overwrite the files of the installed " + other + ")");
        f.evidence.push_back({"Requires-Dist", line, d.location + "/METADATA"});
        continue;
      }
      // numpy beside a torch built against numpy 1: the pin, else pip would pick numpy 2 and break
      // torch.from_numpy (python.numpy_abi), when the pin also meets what the distribution declares.
      if (req.name == "numpy" && !numpy_pin) numpy_pin = numpy_pin_for_installed_torch(ctx);
      std::string pin = req.name == "numpy" ? *numpy_pin : "";
      if (!pin.empty() && (req.specifiers.empty() || req.specifiers.contains(pin, true)))
        specs.push_back(shell_quote("numpy==" + pin));
      else
        specs.push_back(shell_quote(req.name + req.specifiers.str()));
      f.evidence.push_back({"Requires-Dist", line, d.location + "/METADATA"});
    }
    f.title = d.name + " " + d.version + " requires " + join(names, ", ") + (names.size() == 1 ? ", which is" : ", which are") +
              " not installed";
    f.explanation = "Dependencies " + d.name + " declares are absent; `pip check` reports each of them.";
    // Installed without its dependencies (pip install --no-deps) and its import stops on a module that is not
    // there: broken now, and the root of that import failure (python.import_failed then reads the same error
    // in this finding's evidence and stays silent).
    if (const std::string err = ctx.import_error(d.name); missing_module_is_one_of(err, names)) {
      f.status = Status::kFail;
      f.title = "import " + d.name + " fails: " + f.title;
      f.evidence.push_back({"import " + d.name, err, "after import torch in " + py.interpreter});
    }
    if (!specs.empty()) f.add_fix("Install the missing dependencies as declared", pip_install(ctx, join(specs, " ")));
    if (!clashing.empty())
      f.add_fix("Leave " + join(clashing, ", ") + " uninstalled: pip check keeps reporting it, "
                "and no command is given because installing it re-creates the overwrite", {}, "none");
    f.details = {{"distribution", d.name}, {"version", d.version}, {"missing", names}};
    if (f.status == Status::kFail) f.details["root"] = true;
    out.push_back(std::move(f));
  }
}

void check_shared_packages(const DoctorContext& ctx, std::vector<Finding>& out) {
  if (!ctx.python || !ctx.python_from_paste()) return;
  const auto& py = *ctx.python;
  for (const auto& group : ctx.kb.shared_package_groups()) {
    std::vector<std::pair<std::string, std::string>> installed;  // name, version, in the group's order
    for (const auto& d : group.distributions)
      if (auto it = py.packages.find(d); it != py.packages.end()) installed.push_back(*it);
    if (installed.size() < 2) continue;
    Finding f;
    f.id = "python.same_package_twice";
    f.status = Status::kWarn;
    std::vector<std::string> listed, names;
    for (const auto& [name, version] : installed) {
      listed.push_back(name + " " + version);
      names.push_back(name);
      f.evidence.push_back({name, version, "the pasted report"});
    }
    const std::string packages = join(group.packages, ", ");
    f.evidence.push_back({"installed by each of them", packages, "data/compat/shared_packages.json (their wheels' file lists)"});
    f.title = join(listed, " and ") + " are both installed: each installs " + packages;
    f.explanation = "The wheels write the same files, so the one installed last owns them and `import " + group.packages.front() +
                    "` gets that build whatever the other's metadata says.";
    if (!group.gpu_choice.empty())
      f.explanation += " If another build came last, " + group.gpu_choice + "'s GPU support is gone (onnxruntime then "
                       "offers only CPUExecutionProvider).";
    // Keep one: the group's GPU build first (alone on a machine the paste shows an NVIDIA GPU on), then the others.
    std::vector<std::string> keep;
    const bool gpu_here = !ctx.inv.gpus.empty();
    for (const auto& name : names)
      if (name == group.gpu_choice) keep.push_back(name);
    if (!gpu_here || keep.empty())
      for (const auto& name : names)
        if (name != group.gpu_choice) keep.push_back(name);
    std::string all;
    for (const auto& name : names) all += " " + shell_quote(name);
    for (const auto& name : keep)
      f.add_fix("Remove them all, then reinstall only " + name,
                {pip_of(py) + " uninstall -y" + all, pip_of(py) + " install " + shell_quote(name + "==" + py.packages.at(name))},
                "code that imports the other build's extras must then do without them");
    f.references = group.sources;
    out.push_back(std::move(f));
  }
}

void check_shared_files(const DoctorContext& ctx, std::vector<Finding>& out) {
  if (!ctx.python) return;
  const auto& py = *ctx.python;
  // One finding per pair of owners, naming their files (NCCL: libnccl.so.2 and its headers).
  std::map<std::string, std::vector<const inventory::SharedFile*>> by_owners;
  for (const auto& s : py.shared_files) by_owners[join(s.owners, " + ")].push_back(&s);
  for (const auto& [owners, files] : by_owners) {
    const auto* first = files.front();
    for (const auto* s : files)  // a library is the telling example
      if (s->path.find(".so") != std::string::npos) {
        first = s;
        break;
      }
    std::string winner = first->content_of;
    Finding f;
    f.id = "python.file_overwritten";
    f.status = Status::kFail;
    std::string others;
    for (const auto& o : first->owners)
      if (o != winner) others += (others.empty() ? "" : " and ") + o;
    f.title = winner.empty() ? base_name(first->path) + " is claimed by " + join(first->owners, " and ") +
                                   " and matches neither's RECORD"
                             : base_name(first->path) + " of " + others + " was overwritten by " + winner;
    for (const auto* s : files)
      f.evidence.push_back({s->path, s->content_of.empty() ? "matches no owner's RECORD"
                                                           : "bytes of " + s->content_of + " (by " + s->matched_by + ")",
                            "RECORDs of " + join(s->owners, ", ") + " vs the file on disk"});
    std::string losers;
    for (const auto& o : first->owners)
      if (o != winner) losers += (losers.empty() ? "" : ", ") + o;
    f.explanation = "Both wheels install the same path; the later install overwrote the earlier one's file. "
                    "The metadata still lists " + losers + " as installed, but its bytes are gone: what loads is " +
                    (winner.empty() ? "neither wheel's file" : winner + "'s") + ".";
    std::vector<std::string> uninstall = {pip_of(py) + " uninstall -y"};
    for (const auto& o : first->owners) uninstall.front() += " " + shell_quote(o);
    std::string keep = winner.empty() ? first->owners.front() : winner;
    for (const auto& o : first->owners)
      if (o != winner && !winner.empty()) keep = o;  // the wheel whose file was overwritten is usually the wanted one
    const auto* kept = py.distribution(keep);
    uninstall.push_back(pip_of(py) + " install " + shell_quote(keep + (kept ? "==" + kept->version : "")));
    f.add_fix("Remove both, then reinstall only " + keep, uninstall,
              "check which one torch needs first (`" + pip_of(py) + " show torch` lists its Requires)");
    nlohmann::json list = nlohmann::json::array();
    for (const auto* s : files) list.push_back({{"path", s->path}, {"content_of", s->content_of}});
    f.details = {{"owners", first->owners}, {"files", list}};
    out.push_back(std::move(f));
  }
}

void check_numpy_abi(const DoctorContext& ctx, std::vector<Finding>& out) {
  if (!ctx.python || ctx.python->torch_numpy_error.empty()) return;
  const auto& py = *ctx.python;
  const inventory::Distribution* np = py.distribution("numpy");
  Finding f;
  f.id = "python.numpy_abi";
  f.status = Status::kFail;
  // A pasted report may show numpy's own warning without torch's version: the module is then unnamed.
  const std::string user = py.torch_version.empty() ? "a module built against numpy 1" : "torch " + py.torch_version;
  auto listed = py.packages.find("numpy");  // a pasted report's version, without a dist-info
  const std::string np_version = np ? np->version : listed != py.packages.end() ? listed->second : "";
  f.title = user + " cannot use numpy " + np_version + ": " + py.torch_numpy_error;
  f.evidence = {{py.torch_version.empty() ? "numpy's import warning" : "torch.from_numpy(numpy.zeros(1))",
                 py.torch_numpy_error, "import torch in " + py.interpreter},
                {"numpy", np_version.empty() ? "installed" : np_version, np ? np->location : ctx.python_label()},
                {"torch", py.torch_version, ctx.python_label()}};
  f.explanation = "torch's C++ code was compiled against another numpy C ABI (numpy 2 changed it: "
                  "\"_ARRAY_API not found\" at import, then \"Numpy is not available\"). torch itself imports; "
                  "every tensor <-> array conversion fails.";
  bool numpy2 = np && !np->version.empty() && np->version.front() == '2';
  // The release the planner pins below the ABI break this torch predates (data/compat/pypi.json), so the
  // command names a version known to exist with a wheel for this Python.
  const std::string pinned = numpy_pin_for_installed_torch(ctx);
  if (numpy2 && !pinned.empty())
    f.add_fix("Install numpy " + pinned + ", the newest 1.x for this Python (torch was built against numpy 1)",
              pip_install(ctx, shell_quote("numpy==" + pinned)),
              "packages that require numpy>=2 would then conflict (see python.requirement_conflict)");
  out.push_back(std::move(f));
}

/// What an import error's undefined symbol says of an extension (not torch itself): a torch symbol (at::, c10::,
/// torch::) missing from the torch it loads means it was built against another torch build. One passing a
/// std::string tells the extension's C++11 string ABI ("std::__cxx11::basic_string": the new one); beside a
/// PyTorch wheel of the other ABI (data/compat/torch.json: up to 2.5, and 2.6 but its cu126 builds, the old one;
/// from 2.7 the new one) that is the mismatch; beside a torch that is no such wheel, another torch build; beside
/// one whose version the report does not tell, another release or the other ABI, unsaid.
struct SymbolCause {
  enum Verdict { kNone, kOtherTorch, kStringAbi, kUnsaid } verdict = kNone;
  std::string demangled;
};
SymbolCause torch_symbol_cause(const knowledge::KnowledgeBase& kb, const std::string& error, const std::string& module,
                               const std::string& torch_version) {
  SymbolCause c;
  const std::string symbol = abi::undefined_symbol_in(error);
  if (module == "torch" || symbol.empty()) return c;
  c.demangled = abi::demangle(symbol);
  if (!abi::is_torch_symbol(c.demangled)) return c;
  const bool new_abi = c.demangled.find("std::__cxx11::") != std::string::npos;
  const bool old_abi = !new_abi && (c.demangled.find("std::basic_string<") != std::string::npos ||
                                    c.demangled.find("std::string") != std::string::npos);
  if (!new_abi && !old_abi) {
    c.verdict = SymbolCause::kOtherTorch;
    return c;
  }
  if (!knowledge::pep440::Version::parse(torch_version)) {
    c.verdict = SymbolCause::kUnsaid;  // no torch version stated: another release or the other ABI
    return c;
  }
  // The symbol's ABI is the one PyTorch's wheel of that release uses (an old-ABI "...ERKSs" beside torch 1.4):
  // not the string ABI, so another torch release. A torch of no such wheel (NVIDIA's "2.1.0a0+41361538.nv23.06",
  // a source build) is another build than the one the extension was compiled against, whichever its ABI.
  const std::optional<bool> torch_new_abi = wheel_torch_uses_cxx11_abi(kb, torch_version);
  c.verdict = torch_new_abi && new_abi != *torch_new_abi ? SymbolCause::kStringAbi : SymbolCause::kOtherTorch;
  return c;
}

namespace {

/// A package that imports but whose CUDA library does not load, by its own words: the finding's title and why.
struct LibraryLoadFailure {
  std::string title, why;
  bool only_with_gpu = false;  // said on any machine: an error only where a GPU or driver is known
};
std::optional<LibraryLoadFailure> library_load_failure(const std::string& error, const std::string& interpreter) {
  // onnxruntime's CUDA provider: "Failed to load library libonnxruntime_providers_cuda.so with error: ...".
  if (error.find("onnxruntime_providers_cuda") != std::string::npos)
    return LibraryLoadFailure{"onnxruntime's CUDA execution provider does not load in " + interpreter,
                              "onnxruntime-gpu's CUDA provider links one CUDA major and cuDNN major (its release notes "
                              "name them); a library of those missing or of another major, and it does not load: work "
                              "runs on the CPU or stops."};
  // bitsandbytes' loader: "Configured CUDA binary not found at .../libbitsandbytes_cuda131.so".
  if (error.find("bitsandbytes library load error") != std::string::npos ||
      error.find("bitsandbytes CUDA binary") != std::string::npos)
    return LibraryLoadFailure{"bitsandbytes' CUDA library does not load in " + interpreter,
                              "bitsandbytes loads the library built for torch's CUDA (libbitsandbytes_cudaXYZ); this "
                              "release has none for it, so 8-bit and 4-bit GPU operations are unavailable."};
  // xFormers' warning whose "built for" block matches the installed torch and Python (paste_formats.cpp).
  if (starts_with(error, "xFormers can't load C++/CUDA extensions (its torch and Python are the installed ones"))
    return LibraryLoadFailure{"xFormers' C++/CUDA extensions do not load in " + interpreter,
                              "xFormers imports without its compiled operators, so memory-efficient attention and the "
                              "rest of them are unavailable. The torch and Python it was built for are the installed "
                              "ones, so its block does not name the cause: the CUDA it was built with against torch's "
                              "(XFORMERS_MORE_DETAILS=1 prints the loader's error), or a machine without CUDA."};
  // CTranslate2's loader: "Library cublas64_12.dll is not found or cannot be loaded".
  const std::string ct2 = "Library ";
  if (starts_with(error, ct2) && error.find(" is not found or cannot be loaded") != std::string::npos)
    return LibraryLoadFailure{"CTranslate2 cannot load " + error.substr(ct2.size(), error.find(' ', ct2.size()) - ct2.size()) +
                                  " in " + interpreter,
                              "Each CTranslate2 release is built against one CUDA major and one cuDNN major (its "
                              "installation page names them); a library of that major not on "
                              "the loader's path, and its GPU work (faster-whisper, whisperX) stops."};
  // TensorFlow's dso_loader: "Could not load dynamic library 'libcudart.so.10.1'; dlerror: ...".
  const std::string tf = "Could not load dynamic library '";
  if (starts_with(error, tf))
    return LibraryLoadFailure{"TensorFlow cannot load " + error.substr(tf.size(), error.find('\'', tf.size()) - tf.size()) +
                                  ": it runs without the GPU",
                              "Each TensorFlow release is built against one CUDA and one cuDNN release (its tested "
                              "build configurations); when a library of that release is not on the loader's path, "
                              "TensorFlow lists no GPU and runs on the CPU.",
                              true};
  return std::nullopt;
}

}  // namespace

void check_import_failures(const DoctorContext& ctx, std::vector<Finding>& out) {
  if (!ctx.python) return;
  const auto& py = *ctx.python;
  for (const auto& [module, error] : py.import_errors) {
    if (already_reported(out, error)) continue;  // an ext.* rule already explained this very error
    // The driver's own library missing where the module ran (a container started without the GPUs, a machine
    // without the driver): no CUDA program runs there, whatever this module is.
    if (error.find("libcuda.so.1: cannot open shared object file") != std::string::npos) {
      const bool said = std::any_of(out.begin(), out.end(), [](const Finding& d) {
        return d.id == "driver.missing" && d.status == Status::kFail;
      });
      if (said) continue;
      Finding f;
      f.id = "driver.missing";
      f.status = Status::kFail;
      f.title = "import " + module + " cannot load libcuda.so.1, the NVIDIA driver's library: no driver where it ran";
      f.evidence = {{"import " + module, error, ctx.python_from_paste() ? "the pasted report" : ctx.python_label()}};
      if (ctx.inv.driver.present)
        f.evidence.push_back({"driver (stated for the host)", ctx.inv.driver.version, ctx.inv.driver.source});
      f.explanation = "libcuda.so.1 comes with the NVIDIA driver, not with CUDA's toolkit or pip's wheels. Inside a "
                      "container it is there only when the container was started with the GPUs (docker run --gpus "
                      "all, the NVIDIA container runtime); on a machine, the driver is not installed or not on the "
                      "loader's path.";
      f.add_fix("In a container: start it again with the GPUs passed in (`--gpus all` on docker run's command line). "
                "On a machine: see whether the driver answers and where its library is",
                {"nvidia-smi", "ldconfig -p | grep libcuda.so.1"});
      out.push_back(std::move(f));
      continue;
    }
    Finding f;
    // The package's own words name the cause: built for another torch (xFormers' "built for PyTorch X ...
    // (you have Y)", DeepSpeed's "ops were compiled and installed with a different version", torchvision's
    // and torchaudio's "compiled with different CUDA versions"); else the torch symbol it misses may.
    const SymbolCause cause = torch_symbol_cause(ctx.kb, error, module, py.torch_version);
    // An extension the knowledge base knows (torchao, whose metadata pins no torch, and whose _C does not load
    // on another torch): the release the planner matches to the installed torch from sourced facts, torch kept.
    // When there is one, the installed release was made for another torch, whichever ABI its symbol shows.
    std::string dist = module.substr(0, module.find('.'));
    for (auto& c : dist)
      if (c == '_') c = '-';
    std::optional<Fix> keep;
    if (py.torch_installed && ctx.kb.extension(dist))
      if (Fix k = plan_keeping_torch(ctx, dist, "", 1); !k.commands.empty()) keep = std::move(k);
    const bool string_abi = cause.verdict == SymbolCause::kStringAbi && !keep;
    const bool torch_symbol = cause.verdict != SymbolCause::kNone;
    const std::string& demangled = cause.demangled;
    // A torch symbol passing a std::string, with torch's ABI not stated (kUnsaid), is another torch build either
    // way: another release, or the other ABI of this one.
    const bool other_torch = inventory::says_built_for_another_torch(error) || cause.verdict == SymbolCause::kOtherTorch ||
                             cause.verdict == SymbolCause::kUnsaid || (cause.verdict == SymbolCause::kStringAbi && keep);
    // The package's own words that the installed torch is outside what it supports (Unsloth's "Torch = X too new!").
    const bool out_of_range = inventory::says_torch_out_of_range(error);
    f.id = out_of_range ? "ext.torch_out_of_range"
           : string_abi ? "ext.cxx11_abi_mismatch"
           : other_torch ? "ext.built_for_other_torch"
                         : "python.import_failed";
    // torchao without its C++ ops still imports: what uses them fails, the rest works.
    const bool ops_only = error.find(inventory::kTorchaoSkipsOps) != std::string::npos;
    f.status = ops_only ? Status::kWarn : Status::kFail;
    const std::string installed_torch = py.torch_version.empty() ? "the installed one" : py.torch_version;
    f.title = out_of_range ? module + " refuses torch " + installed_torch + ": " + error
              : string_abi ? module + " was built with the other C++11 string ABI than " + installed_torch + ": import fails in " + py.interpreter
              : cause.verdict == SymbolCause::kUnsaid && !inventory::says_built_for_another_torch(error)
                  ? module + " was built for another torch build than " + installed_torch +
                        " (another release, or the other C++11 ABI): import fails in " + py.interpreter
              : other_torch ? module + " was built for another torch than " + installed_torch +
                                  (ops_only ? ": its C++ ops do not load in " : ": import fails in ") + py.interpreter
                          : "import " + module + " fails in " + py.interpreter;
    const std::optional<LibraryLoadFailure> load = library_load_failure(error, py.interpreter);
    if (load) {
      f.title = load->title;
      // TensorFlow prints its line on any machine: an error only where the paste shows a GPU or driver to use.
      if (load->only_with_gpu && ctx.inv.gpus.empty() && !ctx.inv.driver.present) f.status = Status::kWarn;
    }
    const bool pasted = ctx.python_from_paste();
    f.evidence = {{"import " + module, error,
                   pasted ? "the pasted report" : (py.torch_installed ? "after import torch in " : "in ") + py.interpreter}};
    f.explanation = load     ? load->why
                    : pasted ? "The paste shows this import failing: every program importing it stops there."
                             : "The package is installed (its dist-info is there) but cannot be used: every program "
                               "importing it stops here.";
    if (string_abi)
      f.explanation += " The symbol it misses, " + demangled + ", is torch's own and passes a std::string: the "
                       "extension was compiled with the other _GLIBCXX_USE_CXX11_ABI than this torch (pip's torch up to "
                       "2.5 uses the old ABI, from 2.7 the new one), so it must be rebuilt against, "
                       "or reinstalled for, the torch installed now.";
    else if (cause.verdict == SymbolCause::kUnsaid)
      f.explanation += " The symbol it misses, " + demangled + ", is torch's own and passes a std::string: the "
                       "extension was compiled against another torch release or with the other C++11 string ABI "
                       "(compare `python -c \"import torch; print(torch.compiled_with_cxx11_abi())\"` with how it was built).";
    else if (torch_symbol && cause.verdict == SymbolCause::kStringAbi)
      f.explanation += " The symbol it misses, " + demangled + ", is torch's own and passes a std::string of the "
                       "other C++11 ABI than this torch's: the installed release was built against another torch.";
    else if (torch_symbol)
      f.explanation += " The symbol it misses, " + demangled + ", is torch's own: the extension was compiled "
                       "against another torch release, so it must be reinstalled for, or rebuilt against, the torch "
                       "installed now (or, if its library does not link libtorch, it was imported before torch).";
    if (keep) f.fixes.push_back(std::move(*keep));
    else if (out_of_range)
      f.add_fix("Upgrade " + dist + ": its newer releases know newer torch releases",
                pip_install(ctx, "--upgrade " + shell_quote(dist)),
                "may also change the packages it pins (unsloth_zoo, xformers, bitsandbytes)");
    out.push_back(std::move(f));
  }
}

}  // namespace gpucheck::doctor
