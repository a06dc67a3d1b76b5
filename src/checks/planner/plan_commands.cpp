#include "checks/planner/plan_commands.h"

#include <algorithm>
#include <cctype>

#include "core/text.h"

namespace gpucheck::planner {

std::string quote(const std::string& s) {
  bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::string("_./:@%+=,-").find(c) != std::string::npos;
  });
  if (plain) return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

namespace {

std::string pin(const std::string& name, const std::string& version) { return quote(name + "==" + version); }

}  // namespace

void render_plan(Plan& plan, const Machine& m) {
  std::string python = m.python;  // as a path; `py` is it quoted for the shell
  std::string py = quote(python);
  std::vector<std::string>& cmds = plan.commands;
  cmds.clear();
  if (m.externally_managed) {
    // PEP 668: pip refuses this interpreter's site-packages; a venv next to the project takes the plan.
    cmds.push_back(py + " -m venv .venv");
    python = py = ".venv/bin/python";
  }
  const TorchOption& t = plan.torch;
  std::vector<std::string> companions;
  for (const auto& p : plan.packages)
    if (p.name == "torchvision" || p.name == "torchaudio" || p.name == "triton") companions.push_back(pin(p.name, p.version));
  std::string keep_torch = t.version.empty() ? "" : " " + pin("torch", t.version);
  if (!t.version.empty() && (!t.installed || !companions.empty() || !plan.abi_pins.empty())) {
    std::string c = py + " -m pip install " + pin("torch", t.version);
    for (const auto& x : companions) c += " " + x;
    if (t.index_url.empty())  // from PyPI with torch; an index build gets them from PyPI below
      for (const auto& [name, version] : plan.abi_pins) c += " " + pin(name, version);
    if (!t.index_url.empty()) c += " --index-url " + t.index_url;
    cmds.push_back(c);
  }
  std::vector<std::string> wheels, without_deps;
  for (const auto& p : plan.packages) {
    if (p.build || p.name == "torchvision" || p.name == "torchaudio" || p.name == "triton") continue;
    if (p.no_deps_why.empty()) {
      wheels.push_back(pin(p.name, p.version));
      continue;
    }
    without_deps.push_back(pin(p.name, p.version));
    for (const auto& d : p.deps_instead) wheels.push_back(quote(d));
    plan.notes.push_back(p.no_deps_why);
  }
  if (!without_deps.empty()) cmds.push_back(py + " -m pip install --no-deps " + join(without_deps, " ") + keep_torch);
  if (!plan.wheel_version.empty()) wheels.push_back(pin("wheel", plan.wheel_version));
  if (!plan.ninja_version.empty()) wheels.push_back(pin("ninja", plan.ninja_version));
  if (!t.index_url.empty())
    for (const auto& [name, version] : plan.abi_pins) wheels.push_back(pin(name, version));
  if (!wheels.empty()) cmds.push_back(py + " -m pip install " + join(wheels, " ") + keep_torch);
  bool exported = false;
  std::vector<std::string> built, jit;  // compiled at install; installed from an sdist, ops compiled at first use
  for (const auto& p : plan.packages) {
    if (!p.build) continue;
    (p.jit_ops ? jit : built).push_back(p.version.empty() ? p.name : p.name + " " + p.version);
    if (!exported) {  // the build's settings: its arch list and the toolkit the plan was checked against
      if (!p.arch_list.empty()) {
        cmds.push_back("export " + (p.arch_env.empty() ? std::string("TORCH_CUDA_ARCH_LIST") : p.arch_env) + "=" +
                       quote(p.arch_list));
        if (!p.arch_env.empty())
          plan.notes.push_back(p.name + " " + p.version + " compiles the targets in " + p.arch_env +
                               "; TORCH_CUDA_ARCH_LIST changes nothing in its build (" + p.arch_env_source + ")");
      }
      std::string root = p.toolkit_root.empty() ? m.nvcc_root : p.toolkit_root;
      if (!root.empty()) cmds.push_back("export CUDA_HOME=" + quote(root));
      // `python -m pip` does not activate the venv: torch's BuildExtension runs `ninja` from PATH, and without
      // the venv's bin first it finds none (or another) and compiles one file at a time. The planned
      // toolkit's nvcc comes next.
      std::vector<std::string> path;
      if (auto slash = python.rfind('/'); plan.ninja_from_venv && slash != std::string::npos && slash > 0) {
        std::string bin = python.substr(0, slash);
        path.push_back(bin[0] == '/' ? quote(bin) : "\"$PWD\"/" + quote(bin));
      }
      if (!p.toolkit_root.empty()) path.push_back(quote(root + "/bin"));
      if (!path.empty()) cmds.push_back("export PATH=" + join(path, ":") + ":\"$PATH\"");
      exported = true;
    }
    if (!p.install.empty()) {  // the knowledge base's own steps (a git tree), with this interpreter's pip
      for (std::string s : p.install) {
        if (starts_with(s, "pip install ")) s = py + " -m " + s + keep_torch;
        cmds.push_back(s);
      }
      continue;
    }
    // A build against the installed torch, and any rebuild, skips pip's wheel cache: its key is the sdist, not
    // the torch, so a wheel built earlier against another torch (another venv, an older torch) would be
    // installed instead (seen here: a 0.2.2 wheel built for torch 2.11 installed into a torch 2.1 venv).
    // A forced rebuild takes nothing else: --no-deps, and no torch pin (it would reinstall torch too).
    std::string flags = p.no_build_isolation ? "--no-build-isolation " : "";
    if (p.no_build_isolation || p.reinstall) flags += "--no-cache-dir ";
    cmds.push_back(py + " -m pip install " + flags +
                   (p.reinstall ? "--force-reinstall --no-deps " + pin(p.name, p.version)
                                : pin(p.name, p.version) + keep_torch));
  }
  // Installed is not importable: a package that needs torch loaded RTLD_GLOBAL gets the variable, and the
  // cost says that every later shell needs it too.
  std::vector<std::string> global_imports;
  for (const auto& p : plan.packages)
    if (!p.rtld_global_why.empty()) {
      global_imports.push_back(p.name);
      plan.notes.push_back(p.name + " " + p.version + " imports only with TORCH_USE_RTLD_GLOBAL=1: " + p.rtld_global_why);
    }
  if (!global_imports.empty()) cmds.push_back("export TORCH_USE_RTLD_GLOBAL=1");
  std::vector<std::string> parts;
  if (!t.version.empty()) parts.push_back((t.installed ? "keep " : "") + t.describe());
  for (const auto& p : plan.packages)
    parts.push_back(p.version.empty() ? p.name + " (its source tree, built here)"
                                      : p.name + " " + p.version +
                                            (p.jit_ops ? " (its sdist, nothing compiled)" : p.build ? " (built here)" : ""));
  plan.summary = join(parts, " + ");
  std::vector<std::string> cost;
  if (!t.version.empty() && !t.installed)
    cost.push_back("downloads torch " + t.version + " (about 2 GB with its CUDA libraries)" +
                   (m.installed_torch.empty() || m.externally_managed ? "" : "; replaces torch " + m.installed_torch +
                                                         ": extensions built against it must be rebuilt"));
  if (!built.empty()) cost.push_back("compiles " + join(built, ", ") + " (minutes to hours)");
  if (!jit.empty()) cost.push_back(join(jit, ", ") + ": its CUDA ops compile at first use (nvcc then)");
  if (!global_imports.empty())
    cost.push_back(join(global_imports, ", ") + " imports only with TORCH_USE_RTLD_GLOBAL=1 set, in every shell");
  if (m.externally_managed) cost.push_back("a new venv (.venv): the system Python is externally managed (PEP 668)");
  if (cost.empty()) cost.push_back("no torch change; prebuilt wheels only");
  plan.cost = join(cost, "; ");
}

}  // namespace gpucheck::planner
