#include "checks/abi/request.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <set>

#include "checks/abi/targets.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/text.h"
#include "platform/elf_object.h"
#include "core/subprocess.h"
#include "inventory/collect.h"
#include "inventory/model.h"

namespace gpucheck::abi {
namespace {

std::vector<GpuTarget> gpus_for(const AbiRequest& req) {
  std::vector<GpuTarget> out;
  const inventory::Inventory* inv = req.inventory ? &*req.inventory : nullptr;
  inventory::Inventory live;
  if (!inv && req.gpus.empty() && req.live_inventory) {
    live = inventory::collect_devices();  // GPUs and driver only, asked in a child process
    inv = &live;
  }
  const int driver = inv ? inv->driver.cuda_version : 0;
  for (const auto& s : req.gpus) {
    GpuTarget g = parse_gpu_spec(s);
    g.driver_cuda = driver;
    out.push_back(g);
  }
  if (out.empty() && inv)
    for (const auto& gpu : inv->gpus) {
      if (gpu.cc_major <= 0) continue;
      GpuTarget g;
      g.cc_major = gpu.cc_major;
      g.cc_minor = gpu.cc_minor;
      g.driver_cuda = driver;
      g.label = "GPU " + std::to_string(gpu.index) + " (" + (gpu.name.empty() ? "?" : gpu.name) + ", sm_" +
                std::to_string(gpu.cc_major * 10 + gpu.cc_minor) + ")";
      out.push_back(g);
    }
  return out;
}

bool starts_statement(const std::string& line, const std::string& head) {
  return starts_with(line, head) && (line.size() == head.size() || std::string(" .,\r;").find(line[head.size()]) != std::string::npos);
}

/// The package's own modules that `line` (at the top level of a module of the package) imports relatively:
/// "from .utils import x" -> utils; "from . import a, b" -> a, b; "from .a.b import c" -> a/b.
std::vector<std::string> relative_imports(const std::string& line) {
  std::vector<std::string> out;
  if (!starts_with(line, "from .") || starts_with(line, "from ..")) return out;
  auto words = split(trim(line), ' ');
  if (words.size() < 4 || words[2] != "import") return out;
  std::string from = words[1].substr(1);
  if (!from.empty()) {
    for (auto& c : from)
      if (c == '.') c = '/';
    out.push_back(from);
    return out;
  }
  for (std::size_t i = 3; i < words.size() && words[i] != "as"; ++i)
    for (const auto& name : split(words[i], ','))
      if (!name.empty() && name != "(" && name.find('#') == std::string::npos) out.push_back(name);
  return out;
}

/// "FILE:N" when importing the package directory `package_dir` runs `import torch`: its __init__.py, or a
/// module of the package that __init__.py imports relatively at its top level (and so on), has `import torch` or
/// `from torch` at the top level; else "". Read as text, never imported.
std::string imports_torch_at_top(const std::string& package_dir) {
  std::vector<std::string> queue = {package_dir + "/__init__.py"};
  std::set<std::string> seen;
  for (std::size_t next = 0; next < queue.size() && next < 500; ++next) {
    const std::string file = queue[next];
    std::error_code ec;
    if (!seen.insert(file).second || !std::filesystem::is_regular_file(file, ec)) continue;
    std::string text;
    try {
      text = read_file(file, std::size_t{4} << 20);
    } catch (const InputError&) {
      continue;
    }
    int number = 0;
    for (const auto& line : split(text, '\n')) {
      ++number;
      if (starts_statement(line, "import torch") || starts_statement(line, "from torch")) return file + ":" + std::to_string(number);
      for (const auto& module : relative_imports(line)) {
        const std::string base = std::filesystem::path(file).parent_path().string() + "/" + module;
        queue.push_back(base + ".py");
        queue.push_back(base + "/__init__.py");
      }
    }
  }
  return "";
}

}  // namespace

AuditReport run_abi(const AbiRequest& req) {
  static platform::LdCache cache;  // the loader config keeps a pointer to it
  cache = platform::LdCache::load(req.ld_cache);
  AuditOptions opt;
  opt.loader = LoaderConfig::for_this_host(&cache);
  opt.symbols = req.symbols;
  opt.all_device_code = req.all_device_code;
  opt.gpus = gpus_for(req);
  opt.preload = req.preload;
  for (const auto& p : opt.preload)
    if (platform::ElfObject::loadable_mismatch(p) != "") throw InputError("--preload " + p + ": " + platform::ElfObject::loadable_mismatch(p));
  opt.python = req.python.empty() ? "python3" : req.python;
  opt.python_given = !req.python.empty();
  opt.torch_rtld_global = torch_rtld_global_from_env();
  if (req.cross_check || !req.cuobjdump.empty()) {
    opt.cuobjdump = req.cuobjdump.empty() ? find_cuobjdump() : req.cuobjdump;
    if (opt.cuobjdump.empty())
      throw InputError("--cross-check: no cuobjdump in $CUDA_HOME/bin, /usr/local/cuda/bin or PATH "
                       "(pip install nvidia-cuda-cuobjdump, or --cuobjdump PATH)");
  }

  TargetSet set;
  for (const auto& p : req.paths) add_path_target(p, set);
  bool needs_python = !req.python_packages.empty() || req.torch_extensions || req.torch ||
                      (req.with_torch && req.torch_lib.empty());
  PythonEnvPaths env;
  if (needs_python) env = probe_python(opt.python);
  // A package whose extensions link torch's libraries, in an interpreter without torch, cannot be imported
  // (bmtrain installed without torch): said from the files, without importing anything.
  std::vector<std::pair<std::string, std::string>> import_failures;
  for (const auto& pkg : req.python_packages) {
    std::vector<std::string> requires_names;
    const auto paths = python_package_paths(opt.python, pkg, &requires_names);
    for (const auto& p : paths) add_path_target(p, set);
    if (!env.torch_dir.empty()) continue;
    std::string why;
    if (std::find(requires_names.begin(), requires_names.end(), "torch") != requires_names.end())
      why = pkg + " declares Requires-Dist torch, and torch is not installed for " + opt.python;
    // bmtrain 0.2.3.post2 declares no torch and links no torch library; its __init__.py imports torch.
    for (const auto& p : paths)
      if (why.empty())
        if (std::string line = imports_torch_at_top(p); !line.empty())
          why = line + " imports torch, and torch is not installed for " + opt.python;
    TargetSet own;
    for (const auto& p : paths) add_path_target(p, own);
    for (const auto& f : own.files) {
      try {
        auto object = platform::ElfObject::open(f);  // needed() views its mapping: keep it open while they are read
        for (const auto& n : object->needed())
          if (why.empty() && (n.rfind("libc10", 0) == 0 || n.rfind("libtorch", 0) == 0))
            why = f + " links " + std::string(n) + ", and torch is not installed for " + opt.python;
      } catch (const platform::ElfError&) {
      }
      if (!why.empty()) break;
    }
    if (!why.empty()) import_failures.emplace_back(pkg, why);
  }
  if (req.torch || (req.with_torch && req.torch_lib.empty()))
    if (env.torch_dir.empty()) throw InputError("torch is not installed for " + opt.python);
  if (req.torch)
    for (const auto& f : torch_library_files(env.torch_dir)) add_path_target(f, set);
  if (req.torch_extensions) {
    auto exts = torch_extension_files(env, set);
    if (exts.empty()) set.notes.push_back("no module linking libc10/libtorch in " + std::to_string(env.site_packages.size()) + " site-packages directories");
    for (const auto& f : exts) add_path_target(f, set);
  }
  if (!req.torch_lib.empty()) {
    // A LibTorch linked by a C++ program: the program's own dependencies, all global.
    for (const auto& p : torch_preload(req.torch_lib)) opt.torch_loads.push_back({p, true});
    opt.torch_dir = req.torch_lib;
    opt.torch_chosen_by = "--torch-lib";
    opt.torch_how = "LibTorch linked by the program: global";
  } else if (req.with_torch) {
    TorchImport ti = torch_import(env.torch_dir, opt.torch_rtld_global);
    opt.torch_loads = ti.loads;
    opt.torch_dir = env.torch_dir;
    opt.torch_chosen_by = "--with-torch";
    opt.torch_how = ti.how;
  }
  opt.site_torch = !req.no_torch;
  if (!env.executable.empty()) opt.python = env.executable;
  if (set.files.empty() && !req.torch_extensions) {
    // Nothing audited is never a pass: an unreadable directory or one too deep says why it was skipped.
    if (set.notes.empty())
      throw InputError("nothing to audit: give FILE|DIR, --python-package, --torch-extensions or --torch");
    throw InputError("nothing audited: " + set.notes.front() +
                     (set.notes.size() > 1 ? " (and " + std::to_string(set.notes.size() - 1) + " more)" : ""));
  }

  Auditor auditor(opt);
  AuditReport r = auditor.audit_all(set.files);
  r.notes.insert(r.notes.begin(), set.notes.begin(), set.notes.end());
  r.import_failures = std::move(import_failures);
  if (opt.gpus.empty())
    r.notes.push_back("no GPU known (no inventory GPUs): pass --gpu sm_90 or --from env.json for device-code verdicts");
  return r;
}

}  // namespace gpucheck::abi
